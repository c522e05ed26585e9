//! The names table (built by `build.rs`), decoded.
//!
//! Format (little-endian): `UNM1`, the hash seed (u64), the counts of names, displacement pairs and
//! aliases (u32 each); the displacement pairs (u16, u16); for each hash slot, the index of its name
//! (u16); the names' code points in increasing order (LEB128 deltas); the names in the same order,
//! each as the length of the prefix it shares with the previous name (u8), the rest, `\n`; the
//! aliases, sorted, each as its code point (LEB128), the alias, `\n`.

/// A decoded table: enough to look a name up exactly as `unicode_names2` 1.3.0 does.
pub struct Table {
    seed: u64,
    disps: Vec<(u16, u16)>,
    slots: Vec<u16>,
    codes: Vec<u32>,
    /// All names, concatenated; `ends[k]` is where name `k` ends.
    text: Vec<u8>,
    ends: Vec<u32>,
    aliases: Vec<(Vec<u8>, u32)>,
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.at))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().unwrap()))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().unwrap()))
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn varint(&mut self) -> Result<u32, String> {
        let mut n: u32 = 0;
        for shift in (0..35).step_by(7) {
            let b = self.u8()?;
            n |= u32::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err("bad varint".into())
    }
    fn line(&mut self) -> Result<&'a [u8], String> {
        let rest = &self.bytes[self.at..];
        let n = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("unterminated name")?;
        let s = &rest[..n];
        self.at += n + 1;
        Ok(s)
    }
}

impl Table {
    /// Decode a table; an error for anything that is not one, whole.
    pub fn decode(bytes: &[u8]) -> Result<Table, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != b"UNM1" {
            return Err("not a unicode-names table".into());
        }
        let seed = u64::from_le_bytes(r.take(8)?.try_into().unwrap());
        let n = r.u32()? as usize;
        let nd = r.u32()? as usize;
        let na = r.u32()? as usize;
        if n == 0 || nd == 0 || n > bytes.len() || nd > bytes.len() || na > bytes.len() {
            return Err("bad counts".into());
        }
        let disps = (0..nd)
            .map(|_| Ok((r.u16()?, r.u16()?)))
            .collect::<Result<Vec<_>, String>>()?;
        let slots = (0..n).map(|_| r.u16()).collect::<Result<Vec<_>, _>>()?;
        if slots.iter().any(|&k| usize::from(k) >= n) {
            return Err("bad slot".into());
        }
        let mut codes = Vec::with_capacity(n);
        let mut last = 0u32;
        for _ in 0..n {
            last = last.checked_add(r.varint()?).ok_or("bad code point")?;
            codes.push(last);
        }
        let mut text: Vec<u8> = Vec::with_capacity(n * 24);
        let mut ends: Vec<u32> = Vec::with_capacity(n);
        let mut prev_start = 0usize;
        for _ in 0..n {
            let shared = usize::from(r.u8()?);
            let rest = r.line()?;
            let prev_len = text.len() - prev_start;
            if shared > prev_len {
                return Err("bad shared prefix".into());
            }
            let start = text.len();
            text.extend_from_within(prev_start..prev_start + shared);
            text.extend_from_slice(rest);
            ends.push(text.len() as u32);
            prev_start = start;
        }
        let mut aliases = Vec::with_capacity(na);
        for _ in 0..na {
            let cp = r.varint()?;
            aliases.push((r.line()?.to_vec(), cp));
        }
        if r.at != bytes.len() {
            return Err("trailing bytes".into());
        }
        Ok(Table {
            seed,
            disps,
            slots,
            codes,
            text,
            ends,
            aliases,
        })
    }

    fn name(&self, k: usize) -> &[u8] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.text[start..self.ends[k] as usize]
    }

    /// The real crate's lookup for a name that is neither a Hangul syllable nor a CJK unified
    /// ideograph (`upper`: the searched name, ASCII letters uppercased): the name in the slot its
    /// hash gives, if that name is a prefix of `upper` (the real crate does not check that the
    /// whole of `upper` was matched), or else an alias equal to `upper`.
    pub fn lookup(&self, upper: &[u8]) -> Option<char> {
        let mut g = 0xcbf29ce484222325 ^ self.seed;
        for &b in upper {
            g ^= u64::from(b);
            g = g.wrapping_mul(0x100000001b3);
        }
        let mask = (1u64 << 21) - 1;
        let (h, f1, f2) = (
            (g & mask) as u32,
            ((g >> 21) & mask) as u32,
            ((g >> 42) & mask) as u32,
        );
        let (d1, d2) = self.disps[h as usize % self.disps.len()];
        let slot = u32::from(d2)
            .wrapping_add(f1.wrapping_mul(u32::from(d1)))
            .wrapping_add(f2) as usize
            % self.slots.len();
        let k = usize::from(self.slots[slot]);
        if upper.starts_with(self.name(k)) {
            return char::from_u32(self.codes[k]);
        }
        self.aliases
            .binary_search_by(|(a, _)| a.as_slice().cmp(upper))
            .ok()
            .and_then(|i| char::from_u32(self.aliases[i].1))
    }

    /// Every (name, character) pair of the table, aliases excluded (for tests).
    pub fn names(&self) -> impl Iterator<Item = (&[u8], u32)> + '_ {
        (0..self.codes.len()).map(|k| (self.name(k), self.codes[k]))
    }

    /// Every (alias, character) pair (for tests).
    pub fn aliases(&self) -> impl Iterator<Item = (&[u8], u32)> + '_ {
        self.aliases.iter().map(|(a, c)| (a.as_slice(), *c))
    }
}
