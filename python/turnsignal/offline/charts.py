"""PNG charts with matplotlib (the optional ``plots`` extra, imported only
when a chart is drawn): what every report's charts share."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Sequence, Tuple, Union

__all__ = ["Chart", "draw_charts", "pyplot", "save"]

#: A chart: its file name, and what draws it into a path (given pyplot).
Chart = Tuple[str, Callable[[Any, Path], None]]


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the file-only backend."""
    try:
        import matplotlib
    except ImportError as error:
        raise RuntimeError("plots need matplotlib: pip install 'turnsignal[plots]'") from error
    matplotlib.use("Agg")  # files only: never needs a display
    import matplotlib.pyplot as plt

    return plt


def save(plt: Any, figure: Any, path: Path) -> None:
    """Lay out, write and close ``figure``."""
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def draw_charts(directory: Union[str, Path], charts: Sequence[Chart]) -> List[Path]:
    """Draw ``charts`` into ``directory`` (created if needed); returns the
    paths of those written (a chart with nothing to show writes no file)."""
    plt = pyplot()
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, draw in charts:
        path = folder / name
        draw(plt, path)
        if path.exists():
            paths.append(path)
    return paths
