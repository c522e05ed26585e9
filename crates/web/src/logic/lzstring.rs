//! Reading a permalink's data: lz-string's URI-safe format (`compressToEncodedURIComponent`, which the
//! page still uses to write links), decompressed here with a bound on the output.
//!
//! lz-string's own decompressor builds each dictionary entry as a copy of the previous one plus a
//! character, so a small fragment can expand quadratically (12 KB to 20 million characters) before any
//! size check could run. This one stops as soon as the output passes `max_units` UTF-16 code units, and
//! keeps dictionary entries as ranges of the output instead of copies: time and memory stay linear in
//! the input plus the bound. Every link lz-string wrote decodes to the same text.

/// lz-string's URI-safe alphabet: six bits per character (`$`, the 65th, is never written; it reads as 64,
/// whose bits lie above the six read).
const ALPHABET: &[u8; 65] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LzError {
    /// Not lz-string data: a character outside the alphabet, a code that names no entry, or text that
    /// is not valid UTF-16.
    Damaged,
    /// The text would be longer than the bound.
    TooLarge,
}

/// Reads the input six bits at a time, most significant bit first, values least significant bit first.
/// Like lz-string, it loads the next character as soon as the current one is used up, and bits past
/// the end of the input read as zero.
struct Bits<'a> {
    input: &'a [u8],
    /// The index of the next character to load (lz-string's `data.index`).
    next: usize,
    value: u8,
    mask: u8,
}

impl Bits<'_> {
    fn sextet(c: Option<&u8>) -> Result<u8, LzError> {
        let Some(&c) = c else {
            return Ok(0);
        };
        // The format maps spaces back to `+` (a `+` in a query may have become a space).
        let c = if c == b' ' { b'+' } else { c };
        ALPHABET
            .iter()
            .position(|&a| a == c)
            .map(|i| i as u8)
            .ok_or(LzError::Damaged)
    }

    /// `count` bits as a number.
    fn read(&mut self, count: u32) -> Result<u32, LzError> {
        let mut bits = 0;
        for power in 0..count {
            if self.value & self.mask != 0 {
                bits |= 1 << power;
            }
            self.mask >>= 1;
            if self.mask == 0 {
                self.mask = 32;
                self.value = Self::sextet(self.input.get(self.next))?;
                self.next += 1;
            }
        }
        Ok(bits)
    }
}

/// The dictionary's growth: `enlarge_in` entries until codes need one more bit.
struct Width {
    enlarge_in: u32,
    num_bits: u32,
}

impl Width {
    fn count_entry(&mut self) {
        self.enlarge_in -= 1;
        self.grow_if_due();
    }

    fn grow_if_due(&mut self) {
        if self.enlarge_in == 0 {
            self.enlarge_in = 1 << self.num_bits;
            self.num_bits += 1;
        }
    }
}

/// Decompresses `compressToEncodedURIComponent` output, refusing any text longer than `max_units`
/// UTF-16 code units (a JavaScript string's length).
pub fn decompress(input: &str, max_units: usize) -> Result<String, LzError> {
    let input = input.as_bytes();
    if input.is_empty() {
        return Err(LzError::Damaged);
    }
    let mut bits = Bits {
        input,
        next: 1,
        value: Bits::sextet(input.first())?,
        mask: 32,
    };
    let mut out: Vec<u16> = Vec::new();
    // Entries 0..=2 stand for the format's codes; every other entry is a range `(start, len)` of `out`
    // (each entry is a copy of text already written, so a range is enough).
    let mut dictionary: Vec<(usize, usize)> = vec![(0, 0); 3];
    let mut width = Width {
        enlarge_in: 4,
        num_bits: 3,
    };
    let first = match bits.read(2)? {
        0 => bits.read(8)?,
        1 => bits.read(16)?,
        _ => return Ok(String::new()),
    };
    if max_units == 0 {
        return Err(LzError::TooLarge);
    }
    dictionary.push((0, 1));
    out.push(first as u16);
    let mut previous = (0, 1);

    loop {
        if bits.next > input.len() {
            // lz-string gives up on data that ends without its end marker.
            return Err(LzError::Damaged);
        }
        let code = bits.read(width.num_bits)? as usize;
        let entry = match code {
            0 | 1 => {
                let unit = bits.read(if code == 0 { 8 } else { 16 })?;
                if out.len() >= max_units {
                    return Err(LzError::TooLarge);
                }
                let at = out.len();
                out.push(unit as u16);
                dictionary.push((at, 1));
                width.count_entry();
                (at, 1)
            }
            2 => return String::from_utf16(&out).map_err(|_| LzError::Damaged),
            _ => {
                width.grow_if_due();
                let (start, len) = if code < dictionary.len() {
                    dictionary[code]
                } else if code == dictionary.len() {
                    // The entry being defined: the previous one plus its own first unit.
                    (previous.0, previous.1 + 1)
                } else {
                    return Err(LzError::Damaged);
                };
                if out.len() + len > max_units {
                    return Err(LzError::TooLarge);
                }
                let at = out.len();
                if code < dictionary.len() {
                    out.extend_from_within(start..start + len);
                } else {
                    out.extend_from_within(start..start + len - 1);
                    out.push(out[start]);
                }
                (at, len)
            }
        };
        // The previous entry plus this one's first unit: in `out`, the previous entry's range made one
        // longer (this entry follows it directly).
        dictionary.push((previous.0, previous.1 + 1));
        width.count_entry();
        previous = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs written by lz-string 1.5.0's `compressToEncodedURIComponent` (the page's links).
    const WRITTEN_BY_LZ_STRING: &[(&str, &str)] = &[
        ("", "Q"),
        ("a", "IZA"),
        ("hello world", "BYUwNmD2AEDukCcwBMg"),
        (
            "{\"v\":1,\"code\":\"def test_é():\\n    r = f(\\u0027日本\\u0027)\\n    assert r == 1\\n\"}",
            "N4IgbiBcCMA0IGMD2ATAplE6BmACALmgM74D6AlwBQCUkAOgHa7O4BOuAvLtpXQK4AGAQCYA7IFPTQDTm-IWOqMWuAIZEiaVvjacu0RiAC+QA",
        ),
        ("emoji 🐍 and 𝄞 pairs", "KYWw9gVglgBIvBuFgdmBDAdgExoFg3B4uzADslAE4DOQA"),
    ];

    #[test]
    fn reads_what_lz_string_wrote() {
        for (text, data) in WRITTEN_BY_LZ_STRING {
            assert_eq!(decompress(data, 1 << 20).as_deref(), Ok(*text), "{data}");
        }
        // Repetitive text: long back references and codes several bits wide.
        let text = "abc".repeat(320) + &"xyz".repeat(300);
        let data = "IYIwxqHpPXUNo+TUvczase33BOR+xhJ5Zlp1FNVtD9TdLjrzbnH37vXfPfkMEiBY4eNETpU2ZKIAPAJ4AvZWtXqtmnRr3b9ug8aOnD5kxbOWb1u1Ye3H9p65fvnnt14-e-vgJ8g-2DAkPCwyNDoiJio2IT4pLiUxNTktMzkoA";
        assert_eq!(decompress(data, 1 << 20), Ok(text.clone()));
        // A space stands for `+`, as lz-string reads it.
        assert_eq!(decompress(&data.replace('+', " "), 1 << 20), Ok(text));
    }

    #[test]
    fn refuses_damaged_data() {
        assert_eq!(decompress("", 100), Err(LzError::Damaged));
        assert_eq!(decompress("not-lz-string!!", 100), Err(LzError::Damaged));
        // Cut short: no end marker.
        let data = WRITTEN_BY_LZ_STRING[2].1;
        assert_eq!(
            decompress(&data[..data.len() - 4], 100),
            Err(LzError::Damaged)
        );
    }

    #[test]
    fn the_bound_counts_utf16_units() {
        let (text, data) = WRITTEN_BY_LZ_STRING[2];
        assert_eq!(decompress(data, text.len()).as_deref(), Ok(text));
        assert_eq!(decompress(data, text.len() - 1), Err(LzError::TooLarge));
    }

    /// Writes codes as lz-string's compressor does: each value least significant bit first, packed
    /// six bits to a character, most significant bit first.
    struct Writer {
        out: String,
        value: u8,
        used: u32,
    }

    impl Writer {
        fn write(&mut self, value: u32, count: u32) {
            for i in 0..count {
                self.value = (self.value << 1) | ((value >> i) & 1) as u8;
                self.used += 1;
                if self.used == 6 {
                    self.out.push(ALPHABET[self.value as usize] as char);
                    self.value = 0;
                    self.used = 0;
                }
            }
        }
    }

    /// A crafted bomb: one literal, then `codes` codes each naming the entry being defined, so each
    /// writes one unit more than the last: `codes²/2` units from about `1.5 × codes` characters.
    fn bomb(codes: usize) -> String {
        let mut w = Writer {
            out: String::new(),
            value: 0,
            used: 0,
        };
        w.write(0, 2);
        w.write(u32::from(b'a'), 8);
        let mut width = Width {
            enlarge_in: 4,
            num_bits: 3,
        };
        // The entry each code names is the one being defined: the dictionary holds 4 entries (three
        // codes and the literal), then one more after each code.
        for size in (4..).take(codes) {
            w.write(size, width.num_bits);
            width.grow_if_due();
            width.count_entry();
        }
        w.write(2, width.num_bits);
        w.write(0, 5); // pad the last character
        w.out
    }

    #[test]
    fn a_bomb_stops_at_the_bound() {
        // A small bomb decodes, to exactly the text it stands for.
        let small = decompress(&bomb(10), 1000).unwrap();
        assert_eq!(small, "a".repeat(1 + (2..=11).sum::<usize>()));
        // About 13 KB of fragment that lz-string would expand to about 21 million characters.
        let data = bomb(6_500);
        assert!(data.len() < 14_000, "{}", data.len());
        let t = std::time::Instant::now();
        assert_eq!(decompress(&data, 4 << 20), Err(LzError::TooLarge));
        assert!(
            t.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            t.elapsed()
        );
    }
}
