import Foundation

/// Finds one section's bytes in an ELF64 little-endian file (the format of every Linux binary this builds).
///
/// Pure parsing over a `read(offset, count)` callback, so the I/O stays in `BuildInfo`. Layout from the System V
/// ABI's ELF-64 Object File Format: the header's `e_shoff` (offset 40), `e_shentsize`/`e_shnum`/`e_shstrndx`
/// (58/60/62); each 64-byte section header's `sh_name`, `sh_type`, `sh_offset` and `sh_size` (0, 4, 24, 32).
/// `e_shnum == 0` and `e_shstrndx == 0xffff` mean the real values are in section 0's `sh_size` and `sh_link`.
enum ELFSection {
    /// Reads `count` bytes at `offset`; fewer (or nil) at end of file.
    typealias Reader = (_ offset: UInt64, _ count: Int) -> [UInt8]?

    /// The contents of the section called `name`, or nil when the file is not ELF64 LE or has no such section.
    static func contents(named name: String, read: Reader) -> [UInt8]? {
        guard let header = read(0, 64), header.count == 64,
            header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1
        else { return nil }
        let tableOffset = le64(header, 40)
        let entrySize = Int(le16(header, 58))
        guard tableOffset > 0, entrySize >= 64 else { return nil }
        func sectionHeader(_ index: UInt64) -> [UInt8]? {
            guard let bytes = read(tableOffset + index * UInt64(entrySize), 64), bytes.count == 64 else { return nil }
            return bytes
        }
        var count = UInt64(le16(header, 60))
        var namesIndex = UInt64(le16(header, 62))
        if count == 0 || namesIndex == 0xFFFF {
            guard let first = sectionHeader(0) else { return nil }
            if count == 0 { count = le64(first, 32) }
            if namesIndex == 0xFFFF { namesIndex = UInt64(le32(first, 40)) }
        }
        // A section table larger than this is not a binary we built; refuse rather than read gigabytes.
        guard count <= 65_536, namesIndex < count, let names = sectionHeader(namesIndex),
            let nameTable = read(le64(names, 24), Int(min(le64(names, 32), 1 << 20)))
        else { return nil }
        let wanted = Array(name.utf8)
        for index in 1..<count {
            guard let section = sectionHeader(index) else { return nil }
            let nameOffset = Int(le32(section, 0))
            guard nameOffset + wanted.count < nameTable.count,
                nameTable[nameOffset..<nameOffset + wanted.count].elementsEqual(wanted),
                nameTable[nameOffset + wanted.count] == 0
            else { continue }
            // SHT_NOBITS (8) occupies no file space.
            if le32(section, 4) == 8 { return [] }
            let size = le64(section, 32)
            guard size <= 1 << 20, let bytes = read(le64(section, 24), Int(size)), bytes.count == Int(size) else {
                return nil
            }
            return bytes
        }
        return nil
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }
    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }
    private static func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
}
