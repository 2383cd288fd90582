//! Section sizes of a 32-bit little-endian ELF image (the M4 firmware): flash is .text +
//! .rodata (the `.vector_table` and the measurement inputs in `.fixtures` excluded), RAM is
//! .data + .bss.

use crate::LabError;

/// Flash and static RAM of an image, bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Footprint {
    /// .text + .rodata.
    pub flash: u64,
    /// .data + .bss.
    pub ram: u64,
}

impl Footprint {
    /// `self` less the harness's own footprint (`baseline`), saturating at 0.
    pub fn less(self, base: Footprint) -> Footprint {
        Footprint {
            flash: self.flash.saturating_sub(base.flash),
            ram: self.ram.saturating_sub(base.ram),
        }
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}

fn u32_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

/// (name, size) of every section of an ELF32 little-endian file.
pub fn sections(b: &[u8]) -> Result<Vec<(String, u64)>, LabError> {
    let bad = || LabError::Implementation("M4 lab: not a 32-bit little-endian ELF image".into());
    if b.get(..6) != Some(&[0x7f, b'E', b'L', b'F', 1, 1][..]) {
        return Err(bad());
    }
    let shoff = u32_at(b, 0x20).ok_or_else(bad)? as usize;
    let shentsize = u16_at(b, 0x2E).ok_or_else(bad)? as usize;
    let shnum = u16_at(b, 0x30).ok_or_else(bad)? as usize;
    let shstrndx = u16_at(b, 0x32).ok_or_else(bad)? as usize;
    let header = |i: usize| shoff + i * shentsize;
    let strtab = u32_at(b, header(shstrndx) + 0x10).ok_or_else(bad)? as usize;
    let mut out = Vec::with_capacity(shnum);
    for i in 0..shnum {
        let h = header(i);
        let name_off = strtab + u32_at(b, h).ok_or_else(bad)? as usize;
        let size = u32_at(b, h + 0x14).ok_or_else(bad)?;
        let name = b
            .get(name_off..)
            .and_then(|s| s.split(|&c| c == 0).next())
            .ok_or_else(bad)?;
        out.push((String::from_utf8_lossy(name).into_owned(), size));
    }
    Ok(out)
}

/// The footprint of the image `b`.
pub fn footprint(b: &[u8]) -> Result<Footprint, LabError> {
    let mut f = Footprint::default();
    for (name, size) in sections(b)? {
        match name.as_str() {
            ".text" | ".rodata" => f.flash += size,
            ".data" | ".bss" => f.ram += size,
            _ => {}
        }
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal ELF32 with sections "", .text (100), .rodata (20), .fixtures (999), .data
    /// (8), .bss (4), .shstrtab.
    fn image() -> Vec<u8> {
        let names = b"\0.text\0.rodata\0.fixtures\0.data\0.bss\0.shstrtab\0";
        let name_at = |n: &str| {
            let pat = format!("\0{n}\0");
            names
                .windows(pat.len())
                .position(|w| w == pat.as_bytes())
                .unwrap() as u32
                + 1
        };
        let secs = [
            ("", 0u32),
            (".text", 100),
            (".rodata", 20),
            (".fixtures", 999),
            (".data", 8),
            (".bss", 4),
            (".shstrtab", names.len() as u32),
        ];
        let mut b = vec![0u8; 52];
        b[..6].copy_from_slice(&[0x7f, b'E', b'L', b'F', 1, 1]);
        let strtab_off = b.len() as u32;
        b.extend_from_slice(names);
        let shoff = b.len() as u32;
        b[0x20..0x24].copy_from_slice(&shoff.to_le_bytes());
        b[0x2E..0x30].copy_from_slice(&40u16.to_le_bytes());
        b[0x30..0x32].copy_from_slice(&(secs.len() as u16).to_le_bytes());
        b[0x32..0x34].copy_from_slice(&6u16.to_le_bytes());
        for (n, size) in secs {
            let mut h = [0u8; 40];
            let name = if n.is_empty() { 0 } else { name_at(n) };
            h[..4].copy_from_slice(&name.to_le_bytes());
            if n == ".shstrtab" {
                h[0x10..0x14].copy_from_slice(&strtab_off.to_le_bytes());
            }
            h[0x14..0x18].copy_from_slice(&size.to_le_bytes());
            b.extend_from_slice(&h);
        }
        b
    }

    #[test]
    fn flash_is_text_and_rodata_without_fixtures_ram_is_data_and_bss() {
        let b = image();
        let s = sections(&b).unwrap();
        assert_eq!(s[3], (".fixtures".to_string(), 999));
        let f = footprint(&b).unwrap();
        assert_eq!(
            f,
            Footprint {
                flash: 120,
                ram: 12
            }
        );
        let base = Footprint { flash: 20, ram: 20 };
        assert_eq!(f.less(base), Footprint { flash: 100, ram: 0 });
        assert!(footprint(b"not an elf").is_err());
        assert!(footprint(&b[..60]).is_err());
    }
}
