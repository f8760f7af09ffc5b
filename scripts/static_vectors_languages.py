#!/usr/bin/env python3
"""How much of a language the static vectors know, at the token level.

For hand-written sentences in seven languages (written for this project)
and for the messages of the shared datasets, print the share of tokens that
are ``[UNK]``, the share that are "spelled" (one character other than
punctuation, ``x`` or ``##x``: text the vocabulary only knows letter by
letter), and the mean known share and word share per text. Numbers only:
no text of the datasets is printed.

Usage: python scripts/static_vectors_languages.py [--implementation native]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from pathlib import Path
from typing import Dict, Iterable, List

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

SENTENCES: Dict[str, List[str]] = {
    "English": [
        "What's a good pasta recipe for dinner tonight?",
        "How many grams per person should I cook?",
        "My laptop will not start after the last update.",
        "Can you help me plan a weekend trip to the mountains?",
        "Please rewrite this paragraph so it sounds more formal.",
    ],
    "Spanish": [
        "¿Cuál es una buena receta de pasta para la cena de esta noche?",
        "¿Cuántos gramos por persona debería cocinar?",
        "Mi portátil no arranca después de la última actualización.",
        "¿Puedes ayudarme a planear un viaje de fin de semana a la montaña?",
        "Por favor, reescribe este párrafo para que suene más formal.",
    ],
    "German": [
        "Was ist ein gutes Nudelrezept für das Abendessen heute?",
        "Wie viele Gramm pro Person sollte ich kochen?",
        "Mein Laptop startet nach dem letzten Update nicht mehr.",
        "Kannst du mir helfen, ein Wochenende in den Bergen zu planen?",
        "Bitte formuliere diesen Absatz förmlicher um.",
    ],
    "French": [
        "Quelle est une bonne recette de pâtes pour le dîner de ce soir ?",
        "Combien de grammes par personne devrais-je cuire ?",
        "Mon ordinateur portable ne démarre plus après la dernière mise à jour.",
        "Peux-tu m'aider à organiser un week-end à la montagne ?",
        "Merci de réécrire ce paragraphe pour qu'il soit plus formel.",
    ],
    "Chinese": [
        "今晚晚饭有什么好的意大利面食谱？",
        "每个人应该煮多少克？",
        "上次更新以后我的笔记本电脑无法启动。",
        "你能帮我计划一次去山里的周末旅行吗？",
        "请把这段话改写得更正式一些。",
    ],
    "Japanese": [
        "今夜の夕食にいいパスタのレシピは何ですか？",
        "一人あたり何グラム茹でればいいですか？",
        "最後のアップデートの後、ノートパソコンが起動しません。",
        "山への週末旅行の計画を手伝ってくれますか？",
        "この段落をもっと丁寧な文章に書き直してください。",
    ],
    "Korean": [
        "오늘 저녁으로 좋은 파스타 요리법이 뭐예요?",
        "한 사람당 몇 그램을 삶아야 하나요?",
        "마지막 업데이트 이후로 노트북이 켜지지 않아요.",
        "산으로 가는 주말 여행 계획을 도와줄 수 있나요?",
        "이 문단을 더 격식 있게 다시 써 주세요.",
    ],
}

DATASETS = ("superdialseg", "tiage", "multiwoz", "mtbench101", "trec_cast")
PER_DATASET = 20_000  # distinct messages read per dataset, at most


def shared() -> Path:
    return Path(os.environ.get("TURNSIGNAL_SHARED") or ROOT.parent / "shared")


def dataset_texts(source: str) -> List[str]:
    seen: Dict[str, None] = {}
    with gzip.open(shared() / "datasets" / source / "cases.jsonl.gz", "rt",
                   encoding="utf-8") as handle:
        for line in handle:
            for message in json.loads(line).get("messages", []):
                content = message.get("content")
                if isinstance(content, str) and content not in seen:
                    seen[content] = None
                    if len(seen) >= PER_DATASET:
                        return list(seen)
    return list(seen)


def measure(table, texts: Iterable[str]) -> str:
    tokens = unknown = spelled = 0
    known_shares: List[float] = []
    word_shares: List[float] = []
    for text in texts:
        value = table.pool(text)
        tokens += value.total
        unknown += value.unknown
        spelled += value.spelled
        if value.total:
            known_shares.append(value.known_share)
            word_shares.append(value.word_share)
    return (f"{tokens} | {unknown / tokens:.1%} | {spelled / tokens:.1%} | "
            f"{sum(known_shares) / len(known_shares):.2f} | "
            f"{sum(word_shares) / len(word_shares):.2f}")


def main(argv=None) -> int:
    from turnsignal import _hotpath

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--implementation", default=None)
    args = parser.parse_args(argv)
    table = _hotpath.vector_table(args.implementation)
    print("| text | tokens | [UNK] | spelled | mean known share | mean word share |")
    print("|---|---|---|---|---|---|")
    for language, sentences in SENTENCES.items():
        print(f"| {language} (5 hand-written sentences) | {measure(table, sentences)} |")
    for source in DATASETS:
        texts = dataset_texts(source)
        print(f"| {source} ({len(texts)} distinct messages) | {measure(table, texts)} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
