import CXML2
import XMLSupport

/// A link found in a page.
package struct HTMLLink: Sendable, Equatable {
    /// `href` as written.
    package var href: String
    /// `target` (e.g. `_blank`), if any.
    package var target: String?
    /// The link's text, whitespace collapsed.
    package var text: String
}

/// What libxml2's HTML parser (recovering, like a browser) makes of a page.
package struct HTMLDocument: Sendable, Equatable {
    package var title: String?
    /// Visible text of the body (scripts and styles left out), whitespace collapsed.
    package var text: String
    package var links: [HTMLLink]
    /// False when the parser had to recover from errors (the page is still usable).
    var wellFormed: Bool
    /// libxml2's last error number (0 if none).
    var parserErrorCode: Int
    /// The charset the bytes were read in: the `Content-Type`'s, else the page's `<meta>` one; nil for UTF-8
    /// assumed.
    var charset: String? = nil

    /// Parses `bytes` as HTML; nil when nothing at all could be parsed (empty or binary input).
    /// - Parameter encoding: the `charset` of the `Content-Type`, if any. Without it a `<meta charset>`
    ///   in the page decides, and failing that UTF-8 is assumed (libxml2 would otherwise read Latin-1).
    package static func parse(_ bytes: [UInt8], url: String, encoding: String? = nil) -> HTMLDocument? {
        LibXML2.initialize()
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) else { return nil }
        guard let ctxt = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(ctxt) }
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue)
        let doc: htmlDocPtr? = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) { chars in
                htmlCtxtReadMemory(
                    ctxt, chars, Int32(buf.count), url, encoding ?? (declaresCharset(bytes) ? nil : "UTF-8"), options)
            }
        }
        guard let doc else { return nil }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { return nil }
        var walker = Walker()
        walker.visit(root)
        let meta = encoding == nil ? htmlGetMetaEncoding(doc).map { String(cString: $0) } : nil
        return HTMLDocument(
            title: walker.title.map(Walker.collapse), text: Walker.collapse(walker.text), links: walker.links,
            wellFormed: ctxt.pointee.wellFormed != 0, parserErrorCode: Int(ctxt.pointee.errNo),
            charset: encoding ?? meta)
    }

    /// `bytes` of a page in `charset` (nil: UTF-8) as text, converted by libxml2's encoding handlers, the ones
    /// the parser used; an incomplete character at the end (a cut page) is left out. Unknown charsets and
    /// bytes that do not convert are read as UTF-8, with replacement characters.
    package static func text(of bytes: ArraySlice<UInt8>, charset: String?) -> String {
        let utf8 = { String(decoding: bytes.dropLast(incompleteUTF8Tail(bytes)), as: UTF8.self) }
        guard let charset, !["utf-8", "utf8"].contains(charset.lowercased()) else { return utf8() }
        LibXML2.initialize()
        guard let handler = xmlFindCharEncodingHandler(charset) else { return utf8() }
        defer { xmlCharEncCloseFunc(handler) }
        guard let input = xmlBufferCreate() else { return utf8() }
        defer { xmlBufferFree(input) }
        guard let output = xmlBufferCreate() else { return utf8() }
        defer { xmlBufferFree(output) }
        let added = bytes.withUnsafeBufferPointer { xmlBufferAdd(input, $0.baseAddress, Int32($0.count)) }
        guard added == 0, xmlCharEncInFunc(handler, output, input) >= 0, let content = xmlBufferContent(output)
        else { return utf8() }
        return String(decoding: UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(output))), as: UTF8.self)
    }

    /// How many bytes at the end of `bytes` are the start of a UTF-8 sequence the cut left incomplete.
    static func incompleteUTF8Tail(_ bytes: ArraySlice<UInt8>) -> Int {
        for back in stride(from: 1, through: min(3, bytes.count), by: 1) {
            let byte = bytes[bytes.endIndex - back]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte: the lead is further back
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? back : 0
        }
        return 0
    }
}

/// Depth-first walk over the libxml2 tree.
private struct Walker {
    var title: String?
    var text = ""
    var links: [HTMLLink] = []

    mutating func visit(_ node: xmlNodePtr) {
        var child: xmlNodePtr? = node
        while let n = child {
            switch n.pointee.type {
            case XML_ELEMENT_NODE:
                let name = Self.name(n)
                if name == "title", title == nil {
                    title = Self.content(n)
                } else if name == "script" || name == "style" || name == "head" {
                    if name == "head", let first = n.pointee.children { visit(first) }
                } else {
                    if name == "a", let href = Self.attribute(n, "href") {
                        links.append(
                            HTMLLink(
                                href: href, target: Self.attribute(n, "target"),
                                text: Self.collapse(Self.content(n))))
                    }
                    if ["p", "div", "br", "li", "h1", "h2", "h3", "tr"].contains(name) { text += " " }
                    if let first = n.pointee.children { visit(first) }
                }
            case XML_TEXT_NODE:
                if let c = n.pointee.content { text += String(cString: c) }
            default:
                break
            }
            child = n.pointee.next
        }
    }

    static func name(_ n: xmlNodePtr) -> String {
        guard let raw = n.pointee.name else { return "" }
        return String(cString: raw).lowercased()
    }

    /// Reads an attribute by walking `properties` (no libxml2 allocation to free).
    static func attribute(_ n: xmlNodePtr, _ wanted: String) -> String? {
        var attr = n.pointee.properties
        while let a = attr {
            if let raw = a.pointee.name, String(cString: raw).lowercased() == wanted {
                var value = ""
                var c = a.pointee.children
                while let t = c {
                    if let content = t.pointee.content { value += String(cString: content) }
                    c = t.pointee.next
                }
                return value
            }
            attr = a.pointee.next
        }
        return nil
    }

    /// The concatenated text below `n`.
    static func content(_ n: xmlNodePtr) -> String {
        var out = ""
        var child = n.pointee.children
        while let c = child {
            if c.pointee.type == XML_TEXT_NODE || c.pointee.type == XML_CDATA_SECTION_NODE, let t = c.pointee.content {
                out += String(cString: t)
            } else if c.pointee.type == XML_ELEMENT_NODE {
                out += content(c)
            }
            child = c.pointee.next
        }
        return out
    }

    static func collapse(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\u{A0}" })
            .joined(separator: " ")
    }
}
