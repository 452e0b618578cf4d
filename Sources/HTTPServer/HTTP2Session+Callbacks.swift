import CNghttp2

// MARK: - nghttp2 trampolines: capture nothing, find the session through user_data.

private func owner(_ userData: UnsafeMutableRawPointer?) -> Unmanaged<HTTP2Session> {
    Unmanaged<HTTP2Session>.fromOpaque(userData!)
}

private func isRequestHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Bool {
    frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue)
}

func h2OnBeginHeaders(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, isRequestHeaders(frame), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    owner(userData)._withUnsafeGuaranteedRef { $0.beginHeaders(stream: frame.pointee.hd.stream_id) }
    return 0
}

func h2OnHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?, _ namelen: Int,
    _ value: UnsafePointer<UInt8>?, _ valuelen: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, isRequestHeaders(frame), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    owner(userData)._withUnsafeGuaranteedRef {
        $0.header(
            stream: frame.pointee.hd.stream_id, name: UnsafeBufferPointer(start: name, count: namelen),
            value: UnsafeBufferPointer(start: value, count: valuelen))
    }
    return 0
}

func h2OnDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ stream: Int32, _ data: UnsafePointer<UInt8>?, _ len: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    owner(userData)._withUnsafeGuaranteedRef { $0.data(stream: stream, UnsafeBufferPointer(start: data, count: len)) }
    return 0
}

func h2OnFrameRecv(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return 0 }
    let type = frame.pointee.hd.type
    let endStream = frame.pointee.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
    let stream = frame.pointee.hd.stream_id
    if endStream && (type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue)) {
        owner(userData)._withUnsafeGuaranteedRef { $0.endOfRequest(stream: stream) }
    }
    return 0
}

func h2OnStreamClose(
    _ session: OpaquePointer?, _ stream: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    owner(userData)._withUnsafeGuaranteedRef { $0.streamClosed(stream) }
    return 0
}

func h2OnFrameSend(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, frame.pointee.hd.type == UInt8(NGHTTP2_RST_STREAM.rawValue) else { return 0 }
    owner(userData)._withUnsafeGuaranteedRef { $0.sentReset(stream: frame.pointee.hd.stream_id) }
    return 0
}

func h2ReadBody(
    _ session: OpaquePointer?, _ stream: Int32, _ buf: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ dataFlags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let buf else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    let (n, eof) = owner(userData)._withUnsafeGuaranteedRef { $0.readBody(stream: stream, into: buf, length: length) }
    if eof { dataFlags?.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
    return n
}
