import CXML2

// No Foundation here (Reports' JUnitSchema.swift says why): libxml2's tree becomes plain Swift values, so that the
// readers (Reports' JUnit reader, Doctor's AndroidManifest.xml reader) never touch C.

/// An XML element as plain values: name, attributes, direct text, children, and its source line.
package struct XMLElementNode: Sendable, Equatable {
    package var name: String
    /// By name; a namespaced attribute under its prefixed name (`android:name`).
    package var attributes: [String: String]
    /// Concatenated text and CDATA children (entity-decoded).
    package var text: String
    package var children: [XMLElementNode]
    package var line: Int

    /// The first child element called `name`.
    package func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }

    /// Every child element called `name`.
    package func children(_ name: String) -> [XMLElementNode] { children.filter { $0.name == name } }
}

/// Why a document could not be turned into a tree.
package struct XMLTreeFailure: Error {
    package var line: Int
    package var message: String
}

package enum XMLTree {
    /// Parses `bytes` (no network, no external entities, no entity expansion) into a tree.
    package static func parse(_ bytes: [UInt8], sourceName: String) throws(XMLTreeFailure) -> XMLElementNode {
        LibXML2.initialize()
        guard !bytes.isEmpty else { throw XMLTreeFailure(line: 1, message: "the file is empty") }
        guard let parser = xmlNewParserCtxt() else {
            throw XMLTreeFailure(line: 0, message: "libxml2 could not create a parser")
        }
        defer { xmlFreeParserCtxt(parser) }
        let options = Int32(
            XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_HUGE.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let doc = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlCtxtReadMemory(parser, $0.baseAddress, Int32($0.count), sourceName, nil, options)
            }
        }
        guard let doc else {
            let failure = XMLParseFailure(parser: parser)
            throw XMLTreeFailure(line: failure.line, message: failure.message)
        }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else {
            throw XMLTreeFailure(line: 1, message: "the document has no root element")
        }
        return convert(root)
    }

    private static func convert(_ node: xmlNodePtr) -> XMLElementNode {
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            let local = string(current.pointee.name)
            let prefix = current.pointee.ns.map { string($0.pointee.prefix) } ?? ""
            let name = prefix.isEmpty ? local : prefix + ":" + local
            var value = ""
            var valueNode = current.pointee.children
            while let part = valueNode {
                value += string(part.pointee.content)
                valueNode = part.pointee.next
            }
            attributes[name] = value
            attribute = current.pointee.next
        }
        var text = ""
        var children: [XMLElementNode] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: children.append(convert(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: text += string(current.pointee.content)
            default: break
            }
            child = current.pointee.next
        }
        return XMLElementNode(
            name: string(node.pointee.name), attributes: attributes, text: text, children: children,
            line: Int(xmlGetLineNo(node)))
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func string(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }
}

/// libxml2's last error of a parser context, as a line and a message.
package struct XMLParseFailure {
    package var line: Int
    package var message: String

    package init(parser: xmlParserCtxtPtr) {
        if let error = xmlCtxtGetLastError(parser) {
            line = Int(error.pointee.line)
            message =
                error.pointee.message.map { String(cString: $0) }?
                .trimmedForMessage ?? "unknown parse error"
        } else {
            line = 1
            message = "the document is empty or unreadable"
        }
    }
}

extension String {
    /// Without leading and trailing whitespace/newlines (libxml2 messages end in a newline).
    package var trimmedForMessage: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
