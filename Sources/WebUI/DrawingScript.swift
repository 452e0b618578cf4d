extension WebUI {
    /// Drawing functions both pages use: a DOM builder that only ever sets text and attributes, pretty JSON, the
    /// JWT view, notifications (banner, Notification Center grouped by thread, lock screen, the expanded content
    /// extension), the app's screens and the loaded page in a sandboxed iframe.
    static let drawingScript = #"""
        // h(tag, props, children): the one way the pages make elements. `text` sets textContent; other props become
        // attributes (names are ours, values may be untrusted: no href/src from data is ever set).
        // Bidi controls (embeddings, overrides, isolates, LRM/RLM) reorder what is shown, so the text on screen would not
        // be the text sent (Trojan Source): they are shown as their escape, `\u202E`, marked, never applied.
        const BIDI = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
        function bidiEscaped(text) {
          return String(text).replace(new RegExp(BIDI.source, 'g'),
            c => '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
        }
        function setText(e, text) {
          text = String(text);
          if (!BIDI.test(text)) { e.textContent = text; return; }
          if (['OPTION', 'TEXTAREA', 'TITLE'].includes(e.tagName)) { e.textContent = bidiEscaped(text); return; }
          for (const part of text.split(new RegExp('(' + BIDI.source + ')'))) {
            if (!part) continue;
            if (BIDI.test(part)) e.appendChild(h('span', { class: 'bidi', title: 'bidi control character (not applied)', text: bidiEscaped(part) }));
            else e.appendChild(document.createTextNode(part));
          }
        }
        function h(tag, props, children) {
          const e = document.createElement(tag);
          for (const k in (props || {})) {
            const v = props[k];
            if (v === undefined || v === null || v === false) continue;
            if (k === 'text') setText(e, v);
            else if (k === 'class') e.className = v;
            else if (k === 'on') { for (const ev in v) e.addEventListener(ev, v[ev]); }
            else e.setAttribute(k, v === true ? '' : String(v));
          }
          for (const c of [].concat(children === undefined ? [] : children)) {
            if (c === null || c === undefined || c === false) continue;
            if (typeof c === 'object') e.appendChild(c);
            else if (BIDI.test(String(c))) setText(e.appendChild(document.createElement('span')), c);
            else e.appendChild(document.createTextNode(String(c)));
          }
          return e;
        }
        function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }
        function prettyBody(text) {
          if (text === undefined || text === null) return '';
          try { return JSON.stringify(JSON.parse(text), null, 2); } catch (_) { return String(text); }
        }
        function kvTable(pairs) {
          return h('table', { class: 'kv' }, pairs.filter(p => p[1] !== undefined && p[1] !== null && p[1] !== '')
            .map(p => h('tr', {}, [h('td', { text: p[0] }), h('td', { text: p[1] })])));
        }
        function ms(v) { return v === undefined || v === null ? undefined : (Math.round(v * 10) / 10) + ' ms'; }
        // `bearer <header>.<claims>.<signature>` → the signature replaced by `…` (a report never shows it).
        function redactAuthorization(value) {
          const parts = String(value).split('.');
          return parts.length === 3 ? parts[0] + '.' + parts[1] + '.…' : String(value);
        }
        function decodeBase64URL(s) {
          s = s.replace(/-/g, '+').replace(/_/g, '/');
          while (s.length % 4) s += '=';
          const bytes = Uint8Array.from(atob(s), c => c.charCodeAt(0));
          return new TextDecoder().decode(bytes);
        }
        // The JWT in an authorization value, decoded (header and claims only; nothing is verified).
        function decodeJWT(value) {
          const token = String(value).trim().replace(/^bearer\s+/i, '');
          const parts = token.split('.');
          if (parts.length !== 3) return null;
          try {
            return { header: prettyBody(decodeBase64URL(parts[0])), claims: prettyBody(decodeBase64URL(parts[1])) };
          } catch (_) { return null; }
        }
        function headersTable(headers) {
          return kvTable((headers || []).map(x => [x.name,
            x.name.toLowerCase() === 'authorization' ? redactAuthorization(x.value) : x.value]));
        }
        function jwtView(jwt) {
          return h('div', {}, [h('div', { class: 'hint', text: 'provider token (decoded; the signature is not shown)' }),
            h('pre', { text: 'header ' + prettyBody(jwt.header) + '\nclaims ' + prettyBody(jwt.claims) })]);
        }

        // MARK: notifications as iOS shows them
        function notifCard(n, opts) {
          opts = opts || {};
          const letter = (n.app_name || n.bundle_id || '?').trim().charAt(0).toUpperCase();
          const icon = h('div', { class: 'icon', text: letter },
            n.badge !== undefined && n.badge !== null && n.badge > 0 ? [h('span', { class: 'count', text: n.badge })] : []);
          const cls = ['notif', opts.style || 'list', n.quiet ? 'quiet' : '', opts.count > 1 ? 'stacked' : '',
            opts.onclick ? 'clickable' : ''].join(' ');
          return h('div', { class: cls, title: opts.onclick ? 'tap this notification' : null,
            'data-notification': n.id || null, on: opts.onclick ? { click: opts.onclick } : {} }, [
            h('div', { class: 'head' }, [icon, h('span', { class: 'app', text: n.app_name || n.bundle_id }),
              h('span', { text: opts.when || 'now' })]),
            n.title ? h('div', { class: 't', text: n.title }) : null,
            n.subtitle ? h('div', { class: 'st', text: n.subtitle }) : null,
            n.body ? h('div', { class: 'b', text: n.body }) : null,
            opts.count > 1 ? h('div', { class: 'more', text: (opts.count - 1) + ' more notification' +
              (opts.count > 2 ? 's' : '') + (n.thread_id ? ' in this thread' : '') }) : null]);
        }
        // Notifications stack by app, and within an app by thread-id; newest first.
        function groupByThread(list) {
          const groups = new Map();
          for (const n of list.slice().reverse()) {
            const key = (n.bundle_id || '') + '\u0000' + (n.thread_id || '');
            if (!groups.has(key)) groups.set(key, []);
            groups.get(key).push(n);
          }
          return Array.from(groups.values());
        }
        function phone(screenClass, children, caption) {
          return h('div', { class: 'phone' }, [h('div', { class: 'screen ' + (screenClass || '') }, children),
            caption ? h('div', { class: 'phone-caption', text: caption }) : null]);
        }
        function statusBar() { return h('div', { class: 'statusbar' }, [h('span', { text: '9:41' }), h('span', { text: '5G' })]); }
        function lockScreen(list, opts) {
          opts = opts || {};
          const shown = list.filter(n => n.list !== false);
          return phone('wall', [statusBar(), h('div', { class: 'lock-time', text: '9:41' }),
            h('div', { class: 'lock-date', text: 'Lock Screen' }),
            ...groupByThread(shown).map(g => notifCard(g[0], { count: g.length, onclick: opts.onTap && (() => opts.onTap(g[0])) })),
            shown.length ? null : h('div', { class: 'hint', style: 'text-align:center;color:#eee', text: 'no notifications' })],
            opts.caption || 'lock screen');
        }
        function notificationCenter(list, opts) {
          opts = opts || {};
          return phone('wall', [statusBar(), h('div', { class: 'nc-title', text: opts.title || 'Notification Center' }),
            ...groupByThread(list.filter(n => n.list !== false)).map(g =>
              notifCard(g[0], { count: g.length, onclick: opts.onTap && (() => opts.onTap(g[0])) })),
            list.length ? null : h('div', { class: 'hint', style: 'padding:8px 14px;color:#eee', text: opts.empty || 'No Older Notifications' })],
            opts.caption || 'Notification Center');
        }
        // Why a notification had no banner, from what the device recorded: provisional (quiet) delivery, the
        // passive interruption level, or the app's willPresent answer in the foreground (`before`: the trace events
        // of the same delivery, before it was presented). Else the device's alert setting was off.
        function noBannerReason(n, before) {
          if (n.quiet) return 'no banner: delivered quietly (provisional authorization), to Notification Center only';
          if (n.interruption_level === 'passive') return 'no banner: interruption-level passive (no banner, no sound, the screen stays dark)';
          const present = (before || []).filter(e => e.kind === 'callback' && e.label === 'willPresent').pop();
          if (present) return 'no banner: the app was in the foreground and its willPresent answer left the banner out' +
            (present.notes && present.notes.length ? ': ' + present.notes[0].split(' -> ').pop() : '');
          if (before) return 'no banner: alerts (banners) are off in the app\u2019s notification settings';
          return 'no banner';
        }
        function bannerScreen(n, caption, before) {
          return phone('', [statusBar(), notifCard(n, { style: 'banner' }),
            h('div', { class: 'content no-banner', text: n.banner === false ? '(' + noBannerReason(n, before) + ')' : '' })],
            caption || (n.banner === false ? 'not shown as a banner' : 'banner'));
        }
        function expandedView(n) {
          const ext = n.expanded || { lines: [], actions: n.actions || [] };
          return phone('wall', [statusBar(), h('div', { class: 'expanded' }, [
            ext.lines && ext.lines.length ? h('div', { class: 'ext' }, ext.lines.map(l => h('div', { text: l }))) : null,
            h('div', { class: 'body' }, [h('div', { class: 'head', style: 'font-size:10px;color:#6e6e73',
              text: (n.app_name || n.bundle_id).toUpperCase() }),
              n.title ? h('div', { style: 'font-weight:600', text: n.title }) : null,
              n.subtitle ? h('div', { text: n.subtitle }) : null, n.body ? h('div', { text: n.body }) : null]),
            ...(ext.actions || []).map(a => h('button', { class: 'action', type: 'button', text: a }))])],
            n.expanded ? 'content extension (expanded)' : 'expanded (long press)');
        }
        // Every way one presented notification showed.
        function notificationPictures(n, before) {
          const pics = [bannerScreen(n, undefined, before), lockScreen([n])];
          if (n.expanded || (n.actions && n.actions.length)) pics.push(expandedView(n));
          return h('div', { class: 'pictures' }, pics);
        }

        // MARK: the app's screens, a row of them (root first), with the tab bar and an alert over the last
        function screensRow(nav) {
          const stack = nav.stack && nav.stack.length ? nav.stack : [{ id: 'root', title: '' }];
          const tabs = nav.tabs || [];
          const row = [];
          stack.forEach((s, i) => {
            if (i > 0) row.push(h('div', { class: 'arrow-right', text: '→' }));
            const last = i === stack.length - 1;
            const children = [statusBar(), h('div', { class: 'navbar' }, [
                h('span', { class: 'back', text: i > 0 ? '‹ ' + (stack[i - 1].title || 'Back') : '' }),
                h('span', { class: 'title', text: s.title || s.id }), h('span', { style: 'width:30px' })]),
              h('div', { class: 'content' }, [h('div', { class: 'mono', text: 'screen ' + s.id }),
                s.url ? h('div', { class: 'mono', text: s.url }) : null]),
              tabs.length ? h('div', { class: 'tabbar' }, tabs.map((t, k) =>
                h('div', { class: k === nav.selected_tab ? 'on' : '', text: t }))) : null];
            if (last && nav.alert) {
              children.push(h('div', { class: 'alert-veil' }, [h('div', { class: 'alert', role: 'alertdialog' }, [
                h('div', { class: 'at', text: nav.alert.title }), h('div', { class: 'am', text: nav.alert.message }),
                h('div', { class: 'ab' }, (nav.alert.buttons || []).map(b => h('div', { text: b })))])]));
            }
            row.push(phone('', children, i === 0 ? 'root' : 'pushed ' + i));
          });
          return h('div', { class: 'screens' }, row);
        }

        // MARK: the loaded page: URL, status, redirects, and the document in an iframe that may run nothing
        function textDocument(text) {
          const esc = String(text || '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
          return '<!DOCTYPE html><meta charset="utf-8"><pre style="white-space:pre-wrap;font:12px monospace">' + esc + '</pre>';
        }
        function pageView(p) {
          const frame = h('iframe', { sandbox: '', referrerpolicy: 'no-referrer', title: 'page (scripts off)' });
          frame.srcdoc = p.html !== undefined && p.html !== null ? p.html : textDocument(p.text);
          const ok = p.status >= 200 && p.status < 400;
          return h('div', { class: 'browser' }, [
            h('div', { class: 'bar' }, [h('span', { class: 'status ' + (ok ? 'ok' : 'bad'), text: p.status }),
              h('span', { class: 'url', text: p.final_url }), p.title ? h('span', { text: p.title }) : null]),
            p.redirects && p.redirects.length ? h('div', { class: 'redirects' }, p.redirects.map(r =>
              h('div', { text: (r.status ? r.status + ' ' : '') + r.from + ' → ' + r.to }))) : null,
            p.requested_url && p.requested_url !== p.final_url && !(p.redirects && p.redirects.length)
              ? h('div', { class: 'redirects', text: 'requested ' + p.requested_url }) : null,
            p.served_bytes ? h('div', { class: 'redirects page-cut', text: 'first 64 KiB of ' +
              p.served_bytes.toLocaleString('en-US') + ' bytes shown' }) : null,
            frame]);
        }
        """#
}
