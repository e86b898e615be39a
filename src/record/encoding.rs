//! The two encodings game records come in: UTF-8 (`.kifu`, `.ki2u`, most
//! CSA files) and Shift_JIS (`.kif`, `.ki2`, older CSA files). Shift_JIS is
//! read and written with `encoding_rs` (its Shift_JIS is the Windows code
//! page 932 that the Windows GUIs use); a player's name or a comment may be
//! any JIS X 0208 character, so a table of the notation's own characters
//! would not do.

use super::RecordError;

/// A text encoding of record files.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8.
    Utf8,
    /// Shift_JIS (Windows-31J).
    ShiftJis,
}

/// Line number (from 1) of byte offset `at`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    bytes[..at.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Decodes `bytes` as `encoding`, naming the first line that is not valid.
pub fn decode(bytes: &[u8], encoding: Encoding) -> Result<String, RecordError> {
    match encoding {
        Encoding::Utf8 => {
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            match std::str::from_utf8(bytes) {
                Ok(text) => Ok(text.to_string()),
                Err(e) => Err(RecordError::Encoding {
                    line: line_of(bytes, e.valid_up_to()),
                    expected: Encoding::Utf8,
                }),
            }
        }
        Encoding::ShiftJis => {
            let mut out = String::with_capacity(bytes.len());
            // 0x0A is never the second byte of a Shift_JIS character, so
            // lines can be decoded one at a time.
            for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                match encoding_rs::SHIFT_JIS
                    .decode_without_bom_handling_and_without_replacement(line)
                {
                    Some(text) => out.push_str(&text),
                    None => {
                        return Err(RecordError::Encoding {
                            line: i + 1,
                            expected: Encoding::ShiftJis,
                        })
                    }
                }
            }
            Ok(out)
        }
    }
}

/// Decodes a file that may be either: UTF-8 when it has a UTF-8 byte-order
/// mark or is valid UTF-8 throughout (Shift_JIS text with kanji almost
/// never is), Shift_JIS otherwise.
pub fn decode_auto(bytes: &[u8]) -> Result<String, RecordError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") || std::str::from_utf8(bytes).is_ok() {
        return decode(bytes, Encoding::Utf8);
    }
    decode(bytes, Encoding::ShiftJis)
}

/// Encodes `text` as Shift_JIS, naming the line of the first character that
/// Shift_JIS cannot hold.
pub fn encode_shift_jis(text: &str) -> Result<Vec<u8>, RecordError> {
    let (bytes, _, had_errors) = encoding_rs::SHIFT_JIS.encode(text);
    if !had_errors {
        return Ok(bytes.into_owned());
    }
    for (i, line) in text.split('\n').enumerate() {
        for c in line.chars() {
            let mut buf = [0u8; 4];
            if encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2 {
                return Err(RecordError::Unencodable {
                    line: i + 1,
                    character: c,
                });
            }
        }
    }
    Err(RecordError::Unencodable {
        line: 1,
        character: '\u{fffd}',
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_jis_round_trips_the_notation_and_names() {
        let text =
            "手合割：平手\n先手：羽生善治\n   1 ７六歩(77)   ( 0:01/00:00:01)\n▲同　竜△５五馬\n";
        let bytes = encode_shift_jis(text).unwrap();
        assert_ne!(bytes, text.as_bytes());
        assert_eq!(decode(&bytes, Encoding::ShiftJis).unwrap(), text);
        assert_eq!(decode_auto(&bytes).unwrap(), text);
        assert_eq!(decode_auto(text.as_bytes()).unwrap(), text);
    }

    #[test]
    fn bad_bytes_name_their_line() {
        let sjis = encode_shift_jis("a\nb\n先手：名人\n").unwrap();
        assert_eq!(
            decode(&sjis, Encoding::Utf8),
            Err(RecordError::Encoding {
                line: 3,
                expected: Encoding::Utf8
            })
        );
        let broken = b"ok\nok\nok\n\x81\n";
        assert_eq!(
            decode(broken, Encoding::ShiftJis),
            Err(RecordError::Encoding {
                line: 4,
                expected: Encoding::ShiftJis
            })
        );
        assert!(decode_auto(broken).is_err());
    }

    #[test]
    fn unencodable_characters_are_named() {
        let err = encode_shift_jis("先手：a\n後手：😀\n").unwrap_err();
        assert_eq!(
            err,
            RecordError::Unencodable {
                line: 2,
                character: '😀'
            }
        );
    }
}
