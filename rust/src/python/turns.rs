//! The per-turn calls of the topic-continuity walk (see
//! `python/turnsignal/_reference/turns.py`): one crossing per turn; the texts
//! of the turn are borrowed from the `Doc`, windowed and analysed with the
//! GIL released (`run`).
//!
//! Every evaluator's calls return the same two layouts, defined once here
//! (`live_result`, `PriorResult`) and once in the reference (`LiveTurnResult`,
//! `PriorTurnResult`): lexical.1's fields, then one `extra` field that holds
//! what the evaluator adds (`None` for lexical.1).

use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyTuple};

use crate::evidence::{live_window, prior_window, strs, PriorWindow};
use crate::phrases::PhraseFlags;
use crate::vectors::Pooled;

use super::doc::{excluded, Doc, LiveInputs, PriorInputs};
use super::lexical2::{cues_tuple, Lexical2LiveTurn};
use super::primitives::LiveTurn;
use super::run;
use super::vectors::{PooledText, VectorTable};

/// The live turn's result (`LiveTurnResult` of the reference): `(analysis,
/// byte_count, truncated, excluded, opaque_only, term_count, entity_count,
/// capped, prose_terms, strong_reference, weak_reference, acknowledgement,
/// change_marker, marker_ambiguous, extra)`.
#[allow(clippy::too_many_arguments)]
fn live_result<'py>(
    py: Python<'py>,
    analysis: Bound<'py, PyAny>,
    w: (usize, bool, bool, bool),
    counts: (usize, usize, bool, usize),
    flags: &PhraseFlags,
    extra: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyTuple>> {
    let (byte_count, truncated, excluded, opaque_only) = w;
    let (terms, entities, capped, prose) = counts;
    let int = |n: usize| -> Bound<'py, PyAny> {
        let Ok(value) = n.into_pyobject(py);
        value.into_any()
    };
    let flag = |b: bool| PyBool::new(py, b).to_owned().into_any();
    // One tuple built in place: this runs once per evaluation.
    PyTuple::new(
        py,
        [
            analysis,
            int(byte_count),
            flag(truncated),
            flag(excluded),
            flag(opaque_only),
            int(terms),
            int(entities),
            flag(capped),
            int(prose),
            flag(flags.strong_reference),
            flag(flags.weak_reference),
            flag(flags.acknowledgement),
            flag(flags.change_marker),
            flag(flags.marker_ambiguous),
            extra,
        ],
    )
}

/// The live turn (messages `start..`) windowed under `max_turn_bytes` and
/// read by `analyse` (with the GIL released when large): `((byte_count,
/// truncated, excluded, opaque_only), what `analyse` made of its segments)`.
fn read_live<T, F>(
    py: Python<'_>,
    doc: &Bound<'_, Doc>,
    start: usize,
    max_turn_bytes: usize,
    analyse: F,
) -> PyResult<((usize, bool, bool, bool), T)>
where
    T: Send,
    F: FnOnce(&[&str]) -> T + Send,
{
    let inputs = LiveInputs::gather(py, doc.get(), start)?;
    let texts = strs(&inputs.texts);
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let ((byte_count, truncated, opaque_only), analysed) = run(py, bytes, || {
        let w = live_window(&texts, inputs.has_opaque, max_turn_bytes);
        let analysed = analyse(&w.segments);
        ((w.byte_count, w.truncated, w.opaque_only), analysed)
    })?;
    Ok((
        (byte_count, truncated, inputs.excluded, opaque_only),
        analysed,
    ))
}

/// The live turn (messages `start..`) as lexical.1 reads it: its result,
/// `extra` None.
#[pyfunction]
pub fn live_turn<'py>(
    py: Python<'py>,
    doc: &Bound<'py, Doc>,
    start: usize,
    max_turn_bytes: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let (w, (analysis, prose, flags)) = read_live(py, doc, start, max_turn_bytes, |segments| {
        crate::score::analyze_live_turn(segments)
    })?;
    let counts = (
        analysis.term_count(),
        analysis.entity_count(),
        analysis.capped,
        prose,
    );
    let live = Bound::new(py, LiveTurn::new(analysis))?.into_any();
    live_result(py, live, w, counts, &flags, py.None().into_bound(py))
}

/// The live turn as lexical.2 reads it: its result (the analysis a
/// `Lexical2LiveTurn`, the flags with lexical.2's lexicons), `extra` the
/// cues `(lead, request, addition, polar, pronoun, dependency, question)`
/// and the number of content terms.
#[pyfunction]
pub fn lexical2_live_turn<'py>(
    py: Python<'py>,
    doc: &Bound<'py, Doc>,
    start: usize,
    max_turn_bytes: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let (w, analysis) = read_live(py, doc, start, max_turn_bytes, |segments| {
        crate::lexical2::analyze_live(segments)
    })?;
    let counts = (
        analysis.base.term_count(),
        analysis.base.entity_count(),
        analysis.base.capped,
        analysis.prose_terms,
    );
    let flags = analysis.flags;
    let extra = (cues_tuple(&analysis.cues), analysis.content.len())
        .into_pyobject(py)?
        .into_any();
    let live = Bound::new(py, Lexical2LiveTurn::new(analysis))?.into_any();
    live_result(py, live, w, counts, &flags, extra)
}

/// What `read_prior` read of a turn: `(byte_count, truncated,
/// tool_cap_reached, excluded, what `analyse` made of its window)`.
type PriorRead<T> = (i64, bool, bool, bool, T);

/// Where and how a prior turn is read: messages `start..end`, the window's
/// `max_turn_bytes`, with or without the assistant's text, within `budget`.
type PriorAt = (usize, usize, usize, bool, i64);

/// One prior turn read by `analyse`: its upper bound, and unless that
/// exceeds the budget (then the turn is not read), `(byte_count, truncated,
/// tool_cap_reached, excluded, what `analyse` made of its window)`.
fn read_prior<T, F>(
    py: Python<'_>,
    doc: &Bound<'_, Doc>,
    at: PriorAt,
    analyse: F,
) -> PyResult<(usize, Option<PriorRead<T>>)>
where
    T: Send,
    F: FnOnce(&PriorWindow<'_>) -> T + Send,
{
    let (start, end, max_turn_bytes, include_assistant, budget) = at;
    let doc = doc.get();
    let inputs = PriorInputs::gather(py, doc, start, end, include_assistant)?;
    let bound = inputs.upper_bound(max_turn_bytes);
    if (bound as i64) > budget {
        return Ok((bound, None));
    }
    let excluded = excluded(doc.messages(start, end).flat_map(|(_, b)| b.iter()));
    let (user, assistant) = (strs(&inputs.user), strs(&inputs.assistant));
    let bytes = user.iter().chain(assistant.iter()).map(|t| t.len()).sum();
    let names = &inputs.names;
    let (w, analysed) = run(py, bytes, || {
        let w = prior_window(&user, &assistant, names, inputs.calls, max_turn_bytes);
        let analysed = analyse(&w);
        ((w.byte_count as i64, w.truncated, w.tool_cap), analysed)
    })?;
    let (byte_count, truncated, tool_cap) = w;
    Ok((
        bound,
        Some((byte_count, truncated, tool_cap, excluded, analysed)),
    ))
}

/// One prior turn's result (`PriorTurnResult` of the reference):
/// `(upper_bound, byte_count, truncated, tool_cap_reached, excluded,
/// lexical, entity, capped, extra)`; `byte_count` -1 (and the rest zero)
/// when the turn did not fit the budget and was not read.
type PriorResult<E> = (usize, i64, bool, bool, bool, f64, f64, bool, E);

/// What an evaluator made of a prior turn's window: `(lexical, entity,
/// capped)` and its `extra`.
type Scored<E> = ((f64, f64, bool), E);

/// What `read_prior` made of a turn, as its result; `unread` is the
/// evaluator's `extra` for a turn that was not read.
fn prior_result<E>(bound: usize, read: Option<PriorRead<Scored<E>>>, unread: E) -> PriorResult<E> {
    match read {
        None => (bound, -1, false, false, false, 0.0, 0.0, false, unread),
        Some((size, truncated, tool_cap, excluded, ((lexical, entity, capped), extra))) => (
            bound, size, truncated, tool_cap, excluded, lexical, entity, capped, extra,
        ),
    }
}

/// One prior turn (messages `start..end`) as lexical.1 reads it: its
/// result, `extra` None.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn prior_turn(
    py: Python<'_>,
    doc: &Bound<'_, Doc>,
    live: &Bound<'_, LiveTurn>,
    start: usize,
    end: usize,
    max_turn_bytes: usize,
    include_assistant: bool,
    budget: i64,
) -> PyResult<PriorResult<Option<()>>> {
    let live = &live.get().inner;
    let at = (start, end, max_turn_bytes, include_assistant, budget);
    let (bound, read) = read_prior(py, doc, at, |w| {
        (crate::score::score_prior(live, &w.segments, &w.names), None)
    })?;
    Ok(prior_result(bound, read, None))
}

/// lexical.2's reading of a prior turn's window: the scores, and `(definite
/// reference, recent overlap, act)` (the last two for the newest turn only).
fn lexical2_scored(
    live: &crate::lexical2::LiveAnalysis,
    w: &PriorWindow<'_>,
    newest: bool,
) -> Scored<(bool, f64, u8)> {
    let (lexical, entity, capped, definite, overlap) =
        crate::lexical2::score_prior(live, &w.segments, &w.names, newest);
    let act = match w.segments[w.user_segments..].last() {
        Some(text) if newest => crate::lexical2::recent_act(text) as u8,
        _ => 0,
    };
    ((lexical, entity, capped), (definite, overlap, act))
}

/// One prior turn as lexical.2 reads it: its result, `extra` the definite
/// reference and, for the newest prior turn (the one that ends where the
/// live turn starts), the recent overlap and the act of its last assistant
/// segment (0.0 and 0 otherwise, and when the turn is not read).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn lexical2_prior_turn(
    py: Python<'_>,
    doc: &Bound<'_, Doc>,
    live: &Bound<'_, Lexical2LiveTurn>,
    start: usize,
    end: usize,
    max_turn_bytes: usize,
    include_assistant: bool,
    budget: i64,
) -> PyResult<PriorResult<(bool, f64, u8)>> {
    let live = live.get().analysis();
    let newest = doc.get().is_newest_prior(end);
    let at = (start, end, max_turn_bytes, include_assistant, budget);
    let (bound, read) = read_prior(py, doc, at, |w| lexical2_scored(live, w, newest))?;
    Ok(prior_result(bound, read, (false, 0.0, 0)))
}

/// The live turn as hybrid.1 reads it (`table`: the static vectors; None:
/// nothing pooled): the analysis a `Lexical2LiveTurn` read with hybrid.1's
/// lexicons, `extra` lexical.2's, then `(additive, lead_dependent, live
/// entity count)` and the live turn's `TurnPooling` (None without a table):
/// nothing is pooled by this call.
#[pyfunction]
pub fn hybrid1_live_turn<'py>(
    py: Python<'py>,
    table: Option<&Bound<'py, VectorTable>>,
    doc: &Bound<'py, Doc>,
    start: usize,
    max_turn_bytes: usize,
) -> PyResult<Bound<'py, PyTuple>> {
    let (w, analysis) = read_live(py, doc, start, max_turn_bytes, |segments| {
        crate::hybrid1::analyze_live(segments)
    })?;
    let counts = (
        analysis.base.term_count(),
        analysis.base.entity_count(),
        analysis.base.capped,
        analysis.prose_terms,
    );
    let flags = analysis.flags;
    let cues = &analysis.cues;
    let extra = (
        cues_tuple(cues),
        analysis.content.len(),
        (
            cues.additive,
            cues.lead_dependent,
            analysis.base.entity_count(),
        ),
        table.map(|table| TurnPooling::new(table, doc, Reading::Live(start, max_turn_bytes))),
    )
        .into_pyobject(py)?
        .into_any();
    let live = Bound::new(py, Lexical2LiveTurn::new(analysis))?.into_any();
    live_result(py, live, w, counts, &flags, extra)
}

/// hybrid.1's `extra` of a prior turn: lexical.2's (definite reference,
/// recent overlap, act) and, for the newest prior turn read with a table,
/// its `TurnPooling` (None otherwise).
type Hybrid1PriorExtra = (bool, f64, u8, Option<TurnPooling>);

/// One prior turn as hybrid.1 reads it: lexical.2's reading (the live turn's
/// analysis carries hybrid.1's lexicons) and `Hybrid1PriorExtra`. Nothing is
/// pooled here: only the newest turn's values are ever read, by one row, and
/// most verdicts are decided before it (docs/hybrid1.md §3), so they are
/// pooled when first asked (`TurnPooling.values`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn hybrid1_prior_turn(
    py: Python<'_>,
    table: Option<&Bound<'_, VectorTable>>,
    doc: &Bound<'_, Doc>,
    live: &Bound<'_, Lexical2LiveTurn>,
    start: usize,
    end: usize,
    max_turn_bytes: usize,
    include_assistant: bool,
    budget: i64,
) -> PyResult<PriorResult<Hybrid1PriorExtra>> {
    let live = live.get().analysis();
    let newest = doc.get().is_newest_prior(end);
    let at = (start, end, max_turn_bytes, include_assistant, budget);
    let (bound, read) = read_prior(py, doc, at, |w| lexical2_scored(live, w, newest))?;
    let read = read.map(|(size, truncated, tool_cap, excluded, (scores, extra))| {
        let (definite, overlap, act) = extra;
        let at = (start, end, max_turn_bytes, include_assistant, budget);
        let reading = Reading::Prior(at);
        let pooling = table
            .filter(|_| newest)
            .map(|table| TurnPooling::new(table, doc, reading));
        (
            size,
            truncated,
            tool_cap,
            excluded,
            (scores, (definite, overlap, act, pooling)),
        )
    });
    Ok(prior_result(bound, read, (false, 0.0, 0, None)))
}

/// Which turn a `TurnPooling` reads again: the live turn `(start,
/// max_turn_bytes)`, or the newest prior turn with the bounds of its first
/// reading.
#[derive(Clone, Copy)]
enum Reading {
    Live(usize, usize),
    Prior(PriorAt),
}

/// A turn's pooled values (`P_live`, or the newest prior turn's `P_0` and
/// `P_last` of docs/hybrid1.md §3), computed when first asked and then
/// kept: the turn is read again from the same `Doc` with the same bounds
/// (the same window as its first reading). Only one row reads them, and
/// most verdicts are decided before it, so most evaluations never pool.
#[pyclass(frozen, module = "turnsignal._native", name = "TurnPooling")]
pub struct TurnPooling {
    table: Py<VectorTable>,
    doc: Py<Doc>,
    reading: Reading,
    pooled: OnceLock<TurnValues>,
    values: OnceLock<Py<PyTuple>>,
}

/// `(turn, last)` of a `TurnPooling` (see `values`).
type TurnValues = (Option<Pooled>, Option<Pooled>);

impl TurnPooling {
    fn new(table: &Bound<'_, VectorTable>, doc: &Bound<'_, Doc>, reading: Reading) -> Self {
        TurnPooling {
            table: table.clone().unbind(),
            doc: doc.clone().unbind(),
            reading,
            pooled: OnceLock::new(),
            values: OnceLock::new(),
        }
    }

    /// The pooled values, computed on first use.
    fn pooled(&self, py: Python<'_>) -> PyResult<&TurnValues> {
        if let Some(pooled) = self.pooled.get() {
            return Ok(pooled);
        }
        let pooled = self.pool(py)?;
        // Another thread may have set it meanwhile: the same numbers.
        Ok(self.pooled.get_or_init(|| pooled))
    }

    fn pool(&self, py: Python<'_>) -> PyResult<TurnValues> {
        let table = self.table.get().shared();
        let doc = self.doc.bind(py);
        Ok(match self.reading {
            Reading::Live(start, max_turn_bytes) => {
                let (_, turn) = read_live(py, doc, start, max_turn_bytes, |segments| {
                    crate::hybrid1::pool_segments(&table, segments)
                })?;
                (Some(turn), None)
            }
            Reading::Prior(at) => {
                let (_, read) = read_prior(py, doc, at, |w| {
                    crate::hybrid1::pool_turn(&table, &w.segments, true)
                })?;
                match read {
                    Some((.., (turn, last))) => (Some(turn), last),
                    None => (None, None),
                }
            }
        })
    }
}

#[pymethods]
impl TurnPooling {
    /// `(turn, last)`: the `PooledText` of the turn's segments joined by
    /// "\n" and, for a prior turn, of its last segment alone (None for the
    /// live turn); `(None, None)` if a prior turn no longer fits (it cannot:
    /// its first reading did, with these bounds).
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(values) = self.values.get() {
            return Ok(values.bind(py).clone());
        }
        let (turn, last) = self.pooled(py)?;
        let text = |value: &Option<Pooled>| value.clone().map(PooledText::new);
        let values = (text(turn), text(last)).into_pyobject(py)?;
        Ok(self.values.get_or_init(|| values.unbind()).bind(py).clone())
    }

    /// hybrid.1's semantic cues of this live turn (docs/hybrid1.md §3.5):
    /// `(semantic, newest, last)`, whether its pooled value is semantic
    /// evidence and its similarities with the newest prior turn's
    /// `TurnPooling` `newest` (both None without semantic evidence or
    /// without `newest`, which is then never pooled). In one crossing,
    /// building no `PooledText`.
    fn similarities<'py>(
        &self,
        py: Python<'py>,
        newest: Option<&Bound<'py, TurnPooling>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let live = match self.pooled(py)? {
            (Some(live), _) => live,
            (None, _) => return (false, None::<f64>, None::<f64>).into_pyobject(py),
        };
        let semantic = crate::hybrid1::semantic(live);
        let (newest, last) = match newest.filter(|_| semantic) {
            Some(newest) => {
                let (turn, last) = newest.get().pooled(py)?;
                crate::hybrid1::similarities(live, turn.as_ref(), last.as_ref())
            }
            None => (None, None),
        };
        (semantic, newest, last).into_pyobject(py)
    }
}
