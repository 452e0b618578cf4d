import PushModel

/// The report data's JSON for trace events and their pictures (field names as in `ReportData`'s schema), and back.
/// Unknown fields are ignored and missing optional ones stay nil, so a newer minor writer is still read.
extension TraceEvent {
    var reportJSON: JSONValue {
        var o: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "from": .string(from.rawValue), "to": .string(to.rawValue),
            "label": .string(label),
        ]
        o["device"] = device.map(JSONValue.string)
        o["at_ms"] = atMilliseconds.map(JSONValue.number)
        o["duration_ms"] = durationMilliseconds.map(JSONValue.number)
        o["status"] = status.map { .number(Double($0)) }
        o["reason"] = reason.map(JSONValue.string)
        if !headers.isEmpty {
            o["headers"] = .array(headers.map { ["name": .string($0.name), "value": .string($0.value)] })
        }
        o["body"] = body.map(JSONValue.string)
        if let jwt { o["jwt"] = ["header": .string(jwt.header), "claims": .string(jwt.claims)] }
        o["dropped"] = dropped.map(JSONValue.string)
        o["notification"] = notification?.reportJSON
        o["navigation"] = navigation?.reportJSON
        o["page"] = page?.reportJSON
        o["step_line"] = stepLine.map { .number(Double($0)) }
        if !notes.isEmpty { o["notes"] = .array(notes.map(JSONValue.string)) }
        return .object(o)
    }

    init?(reportJSON json: JSONValue) {
        guard let o = json.objectValue, let kind = o["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let from = o["from"]?.stringValue.flatMap(TraceHop.init(rawValue:)),
            let to = o["to"]?.stringValue.flatMap(TraceHop.init(rawValue:))
        else { return nil }
        var jwt: TraceJWT?
        if let j = o["jwt"]?.objectValue, let h = j["header"]?.stringValue, let c = j["claims"]?.stringValue {
            jwt = TraceJWT(header: h, claims: c)
        }
        self.init(
            kind, from: from, to: to, label: o["label"]?.stringValue ?? "", device: o["device"]?.stringValue,
            atMilliseconds: o["at_ms"]?.doubleValue, durationMilliseconds: o["duration_ms"]?.doubleValue,
            status: o["status"]?.intValue, reason: o["reason"]?.stringValue,
            headers: (o["headers"]?.arrayValue ?? []).compactMap { h in
                guard let n = h["name"]?.stringValue, let v = h["value"]?.stringValue else { return nil }
                return TraceHeader(n, v)
            },
            body: o["body"]?.stringValue, jwt: jwt, dropped: o["dropped"]?.stringValue,
            notification: o["notification"].flatMap(NotificationPicture.init(reportJSON:)),
            navigation: o["navigation"].flatMap(NavigationPicture.init(reportJSON:)),
            page: o["page"].flatMap(PagePicture.init(reportJSON:)), stepLine: o["step_line"]?.intValue,
            notes: (o["notes"]?.arrayValue ?? []).compactMap(\.stringValue))
    }
}

extension NotificationPicture {
    var reportJSON: JSONValue {
        var o: [String: JSONValue] = [
            "app_name": .string(appName), "bundle_id": .string(bundleID), "banner": .bool(banner),
            "list": .bool(list), "quiet": .bool(quiet), "actions": .array(actions.map(JSONValue.string)),
        ]
        o["id"] = id.map(JSONValue.string)
        o["title"] = title.map(JSONValue.string)
        o["subtitle"] = subtitle.map(JSONValue.string)
        o["body"] = body.map(JSONValue.string)
        o["thread_id"] = threadID.map(JSONValue.string)
        o["badge"] = badge.map { .number(Double($0)) }
        o["sound"] = sound.map(JSONValue.string)
        o["category"] = categoryID.map(JSONValue.string)
        o["interruption_level"] = interruptionLevel.map(JSONValue.string)
        if let expanded {
            o["expanded"] = [
                "lines": .array(expanded.lines.map(JSONValue.string)),
                "actions": .array(expanded.actions.map(JSONValue.string)),
            ]
        }
        return .object(o)
    }

    init?(reportJSON json: JSONValue) {
        guard let o = json.objectValue, let bundle = o["bundle_id"]?.stringValue else { return nil }
        let strings = { (key: String) in (o[key]?.arrayValue ?? []).compactMap(\.stringValue) }
        var expanded: ExpandedContent?
        if let e = o["expanded"]?.objectValue {
            expanded = ExpandedContent(
                lines: (e["lines"]?.arrayValue ?? []).compactMap(\.stringValue),
                actions: (e["actions"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        self.init(
            id: o["id"]?.stringValue, appName: o["app_name"]?.stringValue ?? bundle, bundleID: bundle,
            title: o["title"]?.stringValue, subtitle: o["subtitle"]?.stringValue, body: o["body"]?.stringValue,
            threadID: o["thread_id"]?.stringValue, badge: o["badge"]?.intValue, sound: o["sound"]?.stringValue,
            categoryID: o["category"]?.stringValue, banner: o["banner"]?.boolValue ?? true,
            list: o["list"]?.boolValue ?? true, quiet: o["quiet"]?.boolValue ?? false,
            interruptionLevel: o["interruption_level"]?.stringValue, actions: strings("actions"), expanded: expanded)
    }
}

extension NavigationPicture {
    var reportJSON: JSONValue {
        var o: [String: JSONValue] = [
            "tabs": .array(tabs.map(JSONValue.string)),
            "stack": .array(
                stack.map { s in
                    var screen: [String: JSONValue] = ["id": .string(s.id), "title": .string(s.title)]
                    screen["url"] = s.url.map(JSONValue.string)
                    return .object(screen)
                }),
        ]
        o["selected_tab"] = selectedTab.map { .number(Double($0)) }
        if let alert {
            o["alert"] = [
                "title": .string(alert.title), "message": .string(alert.message),
                "buttons": .array(alert.buttons.map(JSONValue.string)),
            ]
        }
        return .object(o)
    }

    init?(reportJSON json: JSONValue) {
        guard let o = json.objectValue else { return nil }
        var alert: Alert?
        if let a = o["alert"]?.objectValue {
            alert = Alert(
                title: a["title"]?.stringValue ?? "", message: a["message"]?.stringValue ?? "",
                buttons: (a["buttons"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        self.init(
            tabs: (o["tabs"]?.arrayValue ?? []).compactMap(\.stringValue), selectedTab: o["selected_tab"]?.intValue,
            stack: (o["stack"]?.arrayValue ?? []).compactMap { s in
                guard let id = s["id"]?.stringValue else { return nil }
                return Screen(id: id, title: s["title"]?.stringValue ?? id, url: s["url"]?.stringValue)
            }, alert: alert)
    }
}

extension PagePicture {
    var reportJSON: JSONValue {
        var o: [String: JSONValue] = [
            "requested_url": .string(requestedURL), "final_url": .string(finalURL), "status": .number(Double(status)),
            "redirects": .array(
                redirects.map {
                    ["status": .number(Double($0.status)), "from": .string($0.from), "to": .string($0.to)]
                }
            ),
        ]
        o["title"] = title.map(JSONValue.string)
        o["html"] = html.map(JSONValue.string)
        o["text"] = text.map(JSONValue.string)
        o["served_bytes"] = servedBytes.map { .number(Double($0)) }
        return .object(o)
    }

    init?(reportJSON json: JSONValue) {
        guard let o = json.objectValue, let url = o["final_url"]?.stringValue else { return nil }
        self.init(
            requestedURL: o["requested_url"]?.stringValue ?? url, finalURL: url, status: o["status"]?.intValue ?? 0,
            title: o["title"]?.stringValue,
            redirects: (o["redirects"]?.arrayValue ?? []).compactMap { r in
                guard let from = r["from"]?.stringValue, let to = r["to"]?.stringValue else { return nil }
                return Redirect(status: r["status"]?.intValue ?? 0, from: from, to: to)
            }, html: o["html"]?.stringValue, text: o["text"]?.stringValue, servedBytes: o["served_bytes"]?.intValue)
    }
}
