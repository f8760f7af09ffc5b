//! The table's one binary format (written by `scripts/build_static_vectors.py`),
//! little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | magic `TSSV` |
//! | 2 | format version (1) |
//! | 2 | quantisation: 1 one scale for the table, 2 a multiplier per row |
//! | 4 | dims |
//! | 4 | rows |
//! | 4 | vocabulary bytes |
//! | 8 | unit (f64): a row is `unit × multiplier × int8`; not needed for cosines |
//! | … | the vocabulary: each row's token, UTF-8, followed by a newline |
//! | rows × dims | the int8 matrix, row-major |
//! | rows | quantisation 2 only: the u8 multiplier of each row |

use std::fmt;

use super::normalize::is_punctuation;
use super::wordpiece::Vocab;

const MAGIC: &[u8; 4] = b"TSSV";
const VERSION: u16 = 1;
const HEADER: usize = 28;
/// More dimensions than any table needs: a bound on what a file may claim.
pub const MAX_DIMS: usize = 1024;

/// Why bytes are not a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError(pub String);

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "static vector table: {}", self.0)
    }
}

impl std::error::Error for TableError {}

fn fail<T>(what: impl Into<String>) -> Result<T, TableError> {
    Err(TableError(what.into()))
}

/// A parsed table: read once, then shared (it is never changed).
#[derive(Debug)]
pub struct Table {
    dims: usize,
    matrix: Vec<i8>,
    multipliers: Vec<u8>,
    vocab: Vocab,
    tokens: String,
    starts: Vec<u32>,
    spelled: Vec<bool>,
}

fn spells(token: &str) -> bool {
    let piece = token
        .strip_prefix("##")
        .filter(|p| !p.is_empty())
        .unwrap_or(token);
    let mut chars = piece.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if !is_punctuation(c))
}

fn u16_at(data: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([data[at], data[at + 1]])
}

fn u32_at(data: &[u8], at: usize) -> usize {
    u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]) as usize
}

impl Table {
    /// Parse the binary format; every size is checked against the data.
    pub fn parse(data: &[u8]) -> Result<Table, TableError> {
        if data.len() < HEADER || &data[..4] != MAGIC {
            return fail("not a table (bad magic or too short)");
        }
        if u16_at(data, 4) != VERSION {
            return fail(format!(
                "format version {} (expected {VERSION})",
                u16_at(data, 4)
            ));
        }
        let per_row = match u16_at(data, 6) {
            1 => false,
            2 => true,
            other => return fail(format!("unknown quantisation {other}")),
        };
        let (dims, rows, vocab_bytes) = (u32_at(data, 8), u32_at(data, 12), u32_at(data, 16));
        if dims == 0 || dims > MAX_DIMS || rows == 0 {
            return fail(format!("{rows} rows of {dims} dims"));
        }
        let cells = rows * dims;
        let expected = HEADER + vocab_bytes + cells + if per_row { rows } else { 0 };
        if data.len() != expected {
            return fail(format!(
                "{} bytes, the header implies {expected}",
                data.len()
            ));
        }
        let Ok(tokens) = std::str::from_utf8(&data[HEADER..HEADER + vocab_bytes]) else {
            return fail("the vocabulary is not UTF-8");
        };
        let mut starts = Vec::with_capacity(rows + 1);
        starts.push(0u32);
        for (at, _) in tokens.match_indices('\n') {
            starts.push((at + 1) as u32);
        }
        if starts.len() != rows + 1 || !tokens.ends_with('\n') {
            return fail(format!("the vocabulary does not hold {rows} tokens"));
        }
        if starts.windows(2).any(|w| w[1] - w[0] < 2) {
            return fail("the vocabulary holds an empty token");
        }
        let body = &data[HEADER + vocab_bytes..];
        let mut table = Table {
            dims,
            matrix: body[..cells].iter().map(|&b| b as i8).collect(),
            multipliers: if per_row {
                body[cells..].to_vec()
            } else {
                Vec::new()
            },
            vocab: Vocab::default(),
            tokens: tokens.to_owned(),
            starts,
            spelled: Vec::new(),
        };
        table.vocab = Vocab::new((0..rows).map(|row| table.token(row)));
        table.spelled = (0..rows).map(|row| spells(table.token(row))).collect();
        Ok(table)
    }

    pub fn dims(&self) -> usize {
        self.dims
    }

    pub fn rows(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// The token of `row` (`row < rows()`).
    pub fn token(&self, row: usize) -> &str {
        let (start, end) = (self.starts[row] as usize, self.starts[row + 1] as usize - 1);
        &self.tokens[start..end]
    }

    /// Whether the token of `row` is a single character other than
    /// punctuation (with or without the `##` of a continuation).
    pub fn spelled(&self, row: usize) -> bool {
        self.spelled[row]
    }

    /// The int8 vector of `row` and its multiplier (1 with one scale per table).
    pub fn row(&self, row: usize) -> (&[i8], i32) {
        let cells = &self.matrix[row * self.dims..(row + 1) * self.dims];
        let multiplier = self.multipliers.get(row).map_or(1, |&m| i32::from(m));
        (cells, multiplier)
    }

    /// Add the vector of each of `rows` (times its multiplier) into `sums`:
    /// `dims()` long, or empty for zeros (so that no zeroed allocation is
    /// asked for: glibc's `calloc` skips its per-thread cache). With one scale per table the rows are summed in
    /// 16-bit lanes held in registers (see `add_pairs`), widened once per
    /// `NARROW_ROWS` rows. The integers are the same either way.
    pub fn add_rows(&self, rows: &[u32], sums: &mut Vec<i64>) {
        if sums.is_empty() {
            sums.resize(self.dims, 0);
        }
        let sums = &mut sums[..self.dims];
        if !self.multipliers.is_empty() {
            for &row in rows {
                let (cells, multiplier) = self.row(row as usize);
                let multiplier = i64::from(multiplier);
                for (sum, &cell) in sums.iter_mut().zip(cells) {
                    *sum += multiplier * i64::from(cell);
                }
            }
            return;
        }
        for rows in rows.chunks(NARROW_ROWS) {
            let mut column = 0;
            let mut wide = sums.chunks_exact_mut(64);
            for sums in &mut wide {
                self.add_pairs::<64, 32>(rows, column, sums);
                column += 64;
            }
            let mut narrow = wide.into_remainder().chunks_exact_mut(16);
            for sums in &mut narrow {
                self.add_pairs::<16, 8>(rows, column, sums);
                column += 16;
            }
            for sum in narrow.into_remainder() {
                for &row in rows {
                    *sum += i64::from(self.matrix[row as usize * self.dims + column]);
                }
                column += 1;
            }
        }
    }

    /// Add the columns `column..column + W` of `rows` (at most
    /// `NARROW_ROWS`) into `sums`, `P` (= W / 2) pairs of cells at a time.
    ///
    /// Each pair of cells is read as one 16-bit lane, each cell biased to
    /// `cell + 128` (0..=255, by flipping its top bit) so neither needs
    /// sign extension: on baseline x86-64 (SSE2) a row is then one load,
    /// one add of the whole lanes and one shift and add of their high
    /// bytes per 16 cells. The whole lanes sum `low + 256 × high` modulo
    /// 2^16, so the low bytes' sum is that minus 256 × the high bytes' sum,
    /// exactly: each is at most 255 × 256 < 2^16. The bias comes off at
    /// the end: 128 per row.
    #[inline(always)]
    fn add_pairs<const W: usize, const P: usize>(
        &self,
        rows: &[u32],
        column: usize,
        sums: &mut [i64],
    ) {
        const { assert!(W == 2 * P) };
        let mut whole = [0u16; P];
        let mut high = [0u16; P];
        for &row in rows {
            let at = row as usize * self.dims + column;
            let cells = &self.matrix[at..at + W];
            for (k, pair) in cells.chunks_exact(2).enumerate() {
                let lane = u16::from_le_bytes([pair[0] as u8, pair[1] as u8]) ^ 0x8080;
                whole[k] = whole[k].wrapping_add(lane);
                high[k] += lane >> 8;
            }
        }
        let mut columns = [0u16; W];
        for k in 0..P {
            columns[2 * k] = whole[k].wrapping_sub(high[k] << 8);
            columns[2 * k + 1] = high[k];
        }
        let bias = 128 * rows.len() as i64;
        for (sum, &column) in sums.iter_mut().zip(&columns) {
            *sum += i64::from(column) - bias;
        }
    }
}

/// Rows summed in 16-bit lanes before widening: 256 biased cells of at
/// most 255 each fit.
pub const NARROW_ROWS: usize = 256;
const _: () = assert!(255 * NARROW_ROWS < 1 << 16);

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small table in the binary format, for tests.
    pub fn encode(tokens: &[&str], rows: &[Vec<i8>], multipliers: Option<&[u8]>) -> Vec<u8> {
        let vocab: String = tokens.iter().map(|t| format!("{t}\n")).collect();
        let mut out = MAGIC.to_vec();
        out.extend(VERSION.to_le_bytes());
        out.extend((if multipliers.is_some() { 2u16 } else { 1 }).to_le_bytes());
        out.extend((rows[0].len() as u32).to_le_bytes());
        out.extend((rows.len() as u32).to_le_bytes());
        out.extend((vocab.len() as u32).to_le_bytes());
        out.extend(0.5f64.to_le_bytes());
        out.extend(vocab.as_bytes());
        for row in rows {
            out.extend(row.iter().map(|&v| v as u8));
        }
        if let Some(m) = multipliers {
            out.extend(m);
        }
        out
    }

    #[test]
    fn parses_what_it_describes() {
        let data = encode(&["a", "##b"], &[vec![1, -2], vec![3, 4]], Some(&[2, 5]));
        let table = Table::parse(&data).unwrap();
        assert_eq!((table.dims(), table.rows()), (2, 2));
        assert_eq!(table.token(1), "##b");
        assert!(table.spelled(0) && table.spelled(1));
        assert_eq!(table.row(0), (&[1i8, -2][..], 2));
        assert_eq!(table.row(1), (&[3i8, 4][..], 5));
        let single = Table::parse(&encode(&["a"], &[vec![-7]], None)).unwrap();
        assert_eq!(single.row(0), (&[-7i8][..], 1));
        let words = encode(
            &["ab", "##", "##cd", "!", "##?", "é"],
            &vec![vec![0]; 6],
            None,
        );
        let words = Table::parse(&words).unwrap();
        let spelled: Vec<bool> = (0..6).map(|row| words.spelled(row)).collect();
        assert_eq!(spelled, [false, false, false, false, false, true]);
    }

    #[test]
    fn adds_rows_as_the_plain_sum() {
        // 64 + 16 + 6 columns: each block width and the tail; extreme cells;
        // more rows than one 16-bit pass holds.
        let dims = 86;
        let rows: Vec<Vec<i8>> = (0..5)
            .map(|r| {
                (0..dims)
                    .map(|c| match (r + c) % 5 {
                        0 => -128,
                        1 => 127,
                        _ => ((r * 31 + c * 7) % 256) as u8 as i8,
                    })
                    .collect()
            })
            .collect();
        let tokens: Vec<String> = (0..5).map(|r| format!("t{r}")).collect();
        let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
        for multipliers in [None, Some(&[1u8, 2, 255, 1, 7][..])] {
            let table = Table::parse(&encode(&tokens, &rows, multipliers)).unwrap();
            for count in [0, 1, 3, NARROW_ROWS, NARROW_ROWS + 1, 3 * NARROW_ROWS + 5] {
                let picked: Vec<u32> = (0..count).map(|i| (i * 7 % 5) as u32).collect();
                let mut sums = Vec::new();
                table.add_rows(&picked, &mut sums);
                let mut expected = vec![0i64; dims];
                for &row in &picked {
                    let m = multipliers.map_or(1, |m| i64::from(m[row as usize]));
                    for (e, &cell) in expected.iter_mut().zip(&rows[row as usize]) {
                        *e += m * i64::from(cell);
                    }
                }
                assert_eq!(sums, expected, "{count} rows");
                // Added onto what is there.
                table.add_rows(&picked, &mut sums);
                let doubled: Vec<i64> = expected.iter().map(|e| 2 * e).collect();
                assert_eq!(sums, doubled);
            }
        }
    }

    #[test]
    fn rejects_broken_data() {
        let good = encode(&["a", "b"], &[vec![1], vec![2]], None);
        assert!(Table::parse(&good).is_ok());
        assert!(Table::parse(&good[..good.len() - 1]).is_err());
        assert!(Table::parse(b"TSSV").is_err());
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(Table::parse(&bad).is_err());
        let mut version = good.clone();
        version[4] = 9;
        assert!(Table::parse(&version).is_err());
        let mut quant = good.clone();
        quant[6] = 3;
        assert!(Table::parse(&quant).is_err());
        let empty = encode(&["a", ""], &[vec![1], vec![2]], None);
        assert!(Table::parse(&empty).unwrap_err().0.contains("empty"));
        let mut utf8 = good.clone();
        utf8[HEADER] = 0xff;
        assert!(Table::parse(&utf8).unwrap_err().0.contains("UTF-8"));
        let mut huge = good;
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Table::parse(&huge).is_err());
    }
}
