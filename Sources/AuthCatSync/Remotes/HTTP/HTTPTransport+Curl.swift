internal import CCurl
import Foundation

/// The transport's one file that calls libcurl: a request set up on an easy handle, performed, and its callbacks.
extension HTTPTransport {
    /// libcurl set up once per process, before the first handle (its global setup is not thread-safe).
    private static let libraryReady: Bool = authcat_curl_global_init() == CURLE_OK

    /// A new easy handle, by address; 0 if libcurl could not make one.
    static func newHandle() -> Int {
        guard libraryReady, let handle = curl_easy_init() else { return 0 }
        return Int(bitPattern: handle)
    }

    static func release(_ handle: Int) {
        guard let pointer = UnsafeMutableRawPointer(bitPattern: handle) else { return }
        curl_easy_cleanup(pointer)
    }

    /// Performs `request` on `handle` for `exchange`, on the calling thread, until the reply's end or a stop.
    static func perform(
        _ request: S3Request, on handle: Int, for exchange: Exchange, idleTimeout: TimeInterval, deadline: TimeInterval
    ) -> Exchange.Outcome {
        guard let curl = UnsafeMutableRawPointer(bitPattern: handle) else {
            return .failure(Failure.transfer(code: -1, message: "libcurl could not start a transfer"))
        }
        // Options from an earlier request go; its open connection stays for this one.
        curl_easy_reset(curl)
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        for line in headerLines(for: request) { headers = curl_slist_append(headers, line) }
        var message = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let started = ContinuousClock.now
        let code: CURLcode = message.withUnsafeMutableBufferPointer { messageBuffer in
            let context = Unmanaged.passRetained(exchange)
            defer { context.release() }
            let setup = configure(
                curl, for: request, headers: headers, context: context.toOpaque(),
                errorBuffer: messageBuffer.baseAddress, idleTimeout: idleTimeout, deadline: deadline)
            // Whatever happens, the handle keeps no pointer to this request's buffer or exchange once it is idle.
            defer { curl_easy_reset(curl) }
            guard setup == CURLE_OK else { return setup }
            return curl_easy_perform(curl)
        }
        let words = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch code {
        case CURLE_OK:
            return .success(exchange.reply())
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl's timer may fire a little early; a stalled transfer or connection says so in its words.
            let stalled = words.contains("too slow") || words.lowercased().contains("connect")
            let late = ContinuousClock.now - started >= .milliseconds(Int(deadline * 900))
            return .failure(late && !stalled ? Failure.deadlineExceeded : Failure.timedOut)
        default:
            // A stop of ours (a bound, cancellation, `close()`) already set the outcome, which this does not change.
            let text = words.isEmpty ? String(cString: curl_easy_strerror(code)) : words
            return .failure(Failure.transfer(code: Int(code.rawValue), message: text))
        }
    }

    /// Every header line sent: the request's own, and libcurl's defaults that would change what was signed removed.
    static func headerLines(for request: S3Request) -> [String] {
        var lines = request.headers.map { "\($0.name): \($0.value)" }
        // The bytes stored are what sync wants, never a compressed form of them.
        lines.append("accept-encoding: identity")
        // libcurl would wait for a `100 Continue` before a large body, and label a body as a form.
        lines.append("Expect:")
        if request.header("content-type") == nil { lines.append("Content-Type:") }
        return lines
    }

    private static func configure(
        _ curl: UnsafeMutableRawPointer, for request: S3Request, headers: UnsafeMutablePointer<curl_slist>?,
        context: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>?, idleTimeout: TimeInterval,
        deadline: TimeInterval
    ) -> CURLcode {
        let plainHTTP = request.url.hasPrefix("http://")
        let settings: [(CURLoption, Long)] = [
            (CURLOPT_NOSIGNAL, 1),
            // The path goes out as signed: libcurl would otherwise squash `/../` and `/./`.
            (CURLOPT_PATH_AS_IS, 1),
            (CURLOPT_FOLLOWLOCATION, 0),
            (CURLOPT_CONNECTTIMEOUT_MS, milliseconds(max(idleTimeout, 0.1))),
            (CURLOPT_TIMEOUT_MS, milliseconds(max(deadline, 0.1))),
            // Less than a byte a second for the idle timeout is a stalled server.
            (CURLOPT_LOW_SPEED_LIMIT, 1),
            (CURLOPT_LOW_SPEED_TIME, Long(max(1, idleTimeout.rounded(.up)))),
            (CURLOPT_NOPROGRESS, 0),
            (CURLOPT_SSL_VERIFYPEER, 1),
            (CURLOPT_SSL_VERIFYHOST, 2),
        ]
        for (option, value) in settings {
            let code = authcat_curl_set_long(curl, option, value)
            guard code == CURLE_OK else { return code }
        }
        var code = authcat_curl_set_string(curl, CURLOPT_URL, request.url)
        if code == CURLE_OK { code = authcat_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https") }
        // Plain HTTP may carry a password in clear: straight to the server, whatever the environment names.
        if code == CURLE_OK, plainHTTP { code = authcat_curl_set_string(curl, CURLOPT_PROXY, "") }
        if code == CURLE_OK { code = authcat_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errorBuffer) }
        if code == CURLE_OK { code = authcat_curl_set_headers(curl, headers) }
        if code == CURLE_OK { code = setMethod(curl, of: request) }
        if code == CURLE_OK { code = authcat_curl_set_data_function(curl, CURLOPT_WRITEFUNCTION, receiveBody) }
        if code == CURLE_OK { code = authcat_curl_set_pointer(curl, CURLOPT_WRITEDATA, context) }
        if code == CURLE_OK { code = authcat_curl_set_data_function(curl, CURLOPT_HEADERFUNCTION, receiveHead) }
        if code == CURLE_OK { code = authcat_curl_set_pointer(curl, CURLOPT_HEADERDATA, context) }
        if code == CURLE_OK { code = authcat_curl_set_progress_function(curl, checkStillWanted) }
        if code == CURLE_OK { code = authcat_curl_set_pointer(curl, CURLOPT_XFERINFODATA, context) }
        return code
    }

    /// The method, and the body (copied by libcurl) when there is one to send.
    private static func setMethod(_ curl: UnsafeMutableRawPointer, of request: S3Request) -> CURLcode {
        if request.method == .HEAD { return authcat_curl_set_long(curl, CURLOPT_NOBODY, 1) }
        if request.method == .PUT || !request.body.isEmpty {
            var code = authcat_curl_set_size(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            if code == CURLE_OK {
                code = request.body.withUnsafeBytes { bytes in
                    // An empty body still needs a pointer, or libcurl would ask a callback for one.
                    guard let start = bytes.baseAddress else {
                        return authcat_curl_set_string(curl, CURLOPT_COPYPOSTFIELDS, "")
                    }
                    return authcat_curl_set_pointer(
                        curl, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: start))
                }
            }
            guard code == CURLE_OK else { return code }
        }
        guard request.method != .GET || !request.body.isEmpty else { return CURLE_OK }
        return authcat_curl_set_string(curl, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Long {
        Long(min(seconds * 1000, Double(Int32.max)).rounded(.up))
    }

    typealias Long = Int
}

/// libcurl's write callback: a piece of the body, kept within the bound, or 0 to stop the transfer.
private func receiveBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let exchange = Unmanaged<HTTPTransport.Exchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length)
    return exchange.receive(bytes) ? length : 0
}

/// libcurl's header callback: one line of the reply's head, or 0 to stop the transfer.
private func receiveHead(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let exchange = Unmanaged<HTTPTransport.Exchange>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length), as: UTF8.self)
    return exchange.receive(headLine: line, bytes: length) ? length : 0
}

/// libcurl's progress callback, called at least once a second: nonzero stops a transfer nobody waits for.
private func checkStillWanted(
    _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
    _ uploadTotal: curl_off_t, _ uploaded: curl_off_t
) -> Int32 {
    guard let context else { return 1 }
    let exchange = Unmanaged<HTTPTransport.Exchange>.fromOpaque(context).takeUnretainedValue()
    return exchange.isDecided ? 1 : 0
}
