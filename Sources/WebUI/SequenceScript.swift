extension WebUI {
    /// The sequence diagram (one lifeline per hop, one arrow per trace event, failing checks marked on their hop)
    /// and the detail panel an arrow opens; also the failure box with expected vs actual and a line diff.
    static let sequenceScript = #"""
        const HOPS = ['runner', 'backend', 'fcm', 'apns', 'device', 'app', 'service-extension', 'content-extension',
          'router', 'web-view', 'fixture'];
        const HOP_TITLES = { runner: 'runner', backend: 'backend (run:)', fcm: 'FCM', apns: 'APNs gateway',
          device: 'device', app: 'app callback', 'service-extension': 'service extension',
          'content-extension': 'content extension', router: 'router', 'web-view': 'web view', fixture: 'fixture server' };
        const SVG = 'http://www.w3.org/2000/svg';
        function s(tag, attrs, children) {
          const e = document.createElementNS(SVG, tag);
          for (const k in (attrs || {})) {
            if (k === 'text') e.textContent = bidiEscaped(attrs[k]); else e.setAttribute(k, String(attrs[k]));
          }
          for (const c of children || []) e.appendChild(c);
          return e;
        }
        function clip(text, n) { text = String(text); return text.length > n ? text.slice(0, n - 1) + '…' : text; }
        // Which trace event each failure is about: its trace_index, else the last event that touches its hop.
        function failureEvents(trace, failures) {
          const at = new Map();
          for (const f of failures || []) {
            let i = typeof f.trace_index === 'number' && f.trace_index < trace.length ? f.trace_index : -1;
            if (i < 0 && f.hop) for (let k = trace.length - 1; k >= 0; k--) {
              if (trace[k].to === f.hop || trace[k].from === f.hop) { i = k; break; }
            }
            if (i >= 0) { if (!at.has(i)) at.set(i, []); at.get(i).push(f); }
          }
          return at;
        }
        // onSelect(index) is called when an arrow is clicked.
        function sequenceDiagram(trace, failures, onSelect) {
          const used = new Set();
          for (const e of trace) { used.add(e.from); used.add(e.to); }
          for (const f of failures || []) if (f.hop) used.add(f.hop);
          const hops = HOPS.filter(x => used.has(x));
          const col = 112, left = 62, top = 34, row = 30;
          const x = hop => left + hops.indexOf(hop) * col;
          const width = left * 2 + (hops.length - 1) * col, height = top + 16 + trace.length * row + 10;
          const marker = 'arrowhead';
          const svg = s('svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, role: 'img',
            'aria-label': 'sequence diagram' }, [s('defs', {}, [s('marker', { id: marker, viewBox: '0 0 10 10', refX: 9,
              refY: 5, markerWidth: 9, markerHeight: 9, markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' },
              [s('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#3a3a3c' })])])]);
          const failedHops = new Set((failures || []).map(f => f.hop).filter(Boolean));
          for (const hop of hops) {
            svg.appendChild(s('text', { x: x(hop), y: 16, 'text-anchor': 'middle', class: 'life-title',
              'data-hop': hop, text: HOP_TITLES[hop] || hop }));
            if (failedHops.has(hop)) svg.appendChild(s('text', { x: x(hop) + 4 + (HOP_TITLES[hop] || hop).length * 3.2,
              y: 16, class: 'fail-mark', text: '✗' }));
            svg.appendChild(s('line', { x1: x(hop), y1: top - 10, x2: x(hop), y2: height - 6, class: 'life' }));
          }
          const bad = failureEvents(trace, failures);
          trace.forEach((e, i) => {
            const y = top + 16 + i * row;
            const cls = ['arrow', e.kind === 'response' ? 'back' : '', e.kind === 'dropped' ? 'drop' : '',
              bad.has(i) ? 'bad' : ''].join(' ');
            const g = s('g', { class: cls, 'data-index': i, 'data-kind': e.kind, tabindex: 0 });
            const x1 = x(e.from), x2 = x(e.to);
            const label = (bad.has(i) ? '✗ ' : '') + clip(e.label, Math.max(18, Math.abs(x2 - x1) / 6.2 + 10));
            if (x1 === x2) {
              const d = 'M ' + x1 + ' ' + (y - 8) + ' h 26 v 12 h -24';
              g.appendChild(s('path', { d: d, class: 'hit', fill: 'none' }));
              g.appendChild(s('path', { d: d, fill: 'none', stroke: '#3a3a3c', 'marker-end': 'url(#' + marker + ')' }));
              g.appendChild(s('text', { x: x1 + 32, y: y, text: label }));
            } else {
              g.appendChild(s('line', { x1: x1, y1: y, x2: x2, y2: y, class: 'hit' }));
              g.appendChild(s('line', { x1: x1, y1: y, x2: x2, y2: y, 'marker-end': 'url(#' + marker + ')' }));
              g.appendChild(s('text', { x: (x1 + x2) / 2, y: y - 5, 'text-anchor': 'middle', text: label }));
            }
            if (e.kind === 'dropped') g.appendChild(s('text', { x: x2 + (x2 >= x1 ? 6 : -14), y: y + 4,
              class: 'fail-mark', text: '✕' }));
            g.appendChild(s('title', { text: e.label }));
            const pick = () => {
              svg.querySelectorAll('.arrow.selected').forEach(a => a.classList.remove('selected'));
              g.classList.add('selected');
              onSelect(i);
            };
            g.addEventListener('click', pick);
            g.addEventListener('keydown', ev => { if (ev.key === 'Enter' || ev.key === ' ') pick(); });
            svg.appendChild(g);
          });
          return h('div', { class: 'seq' }, [svg]);
        }
        // The detail of one hop: what was sent and answered, timings, why it stopped, pictures, failed checks.
        function hopDetail(e, failuresHere) {
          const status = e.status !== undefined && e.status !== null ? String(e.status) + (e.reason ? ' ' + e.reason : '') : undefined;
          const parts = [h('h4', { text: (HOP_TITLES[e.from] || e.from) + ' → ' + (HOP_TITLES[e.to] || e.to) + ': ' + e.label }),
            kvTable([['kind', e.kind], ['device', e.device], ['status', status], ['at', ms(e.at_ms)],
              ['took', ms(e.duration_ms)], ['dropped', e.dropped], ['step line', e.step_line]])];
          if (e.headers && e.headers.length) parts.push(h('div', { class: 'hint', text: 'headers' }), headersTable(e.headers));
          if (e.jwt) parts.push(jwtView(e.jwt));
          if (e.body !== undefined && e.body !== null && e.body !== '') parts.push(h('div', { class: 'hint', text: 'body' }),
            h('pre', { class: 'body', text: prettyBody(e.body) }));
          for (const n of e.notes || []) parts.push(h('div', { class: 'hint', text: n }));
          if (e.notification) parts.push(notificationPictures(e.notification));
          if (e.navigation) parts.push(screensRow(e.navigation));
          if (e.page) parts.push(pageView(e.page));
          for (const f of failuresHere || []) parts.push(failureBox(f));
          return h('div', { class: 'hop-detail' }, parts);
        }
        // Lines added and removed between expected and actual (longest common subsequence; long texts are cut).
        function lineDiff(a, b) {
          const x = String(a).split('\n').slice(0, 400), y = String(b).split('\n').slice(0, 400);
          const n = x.length, m = y.length, L = [];
          for (let i = 0; i <= n; i++) L.push(new Array(m + 1).fill(0));
          for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--)
            L[i][j] = x[i] === y[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
          const out = [];
          let i = 0, j = 0;
          while (i < n && j < m) {
            if (x[i] === y[j]) { out.push(h('span', { text: '  ' + x[i] })); i++; j++; }
            else if (L[i + 1][j] >= L[i][j + 1]) { out.push(h('span', { class: 'del', text: '- ' + x[i] })); i++; }
            else { out.push(h('span', { class: 'add', text: '+ ' + y[j] })); j++; }
          }
          while (i < n) out.push(h('span', { class: 'del', text: '- ' + x[i++] }));
          while (j < m) out.push(h('span', { class: 'add', text: '+ ' + y[j++] }));
          return h('pre', { class: 'diff' }, out);
        }
        // A whole-object or snapshot difference as the runner wrote it: `- ` removed/stored, `+ ` added/now,
        // `~ ` changed.
        function changesView(text) {
          return h('pre', { class: 'diff' }, String(text).split('\n').map(l => h('span', {
            class: l.startsWith('- ') ? 'del' : l.startsWith('+ ') ? 'add' : l.startsWith('~ ') ? 'chg' : '', text: l })));
        }
        function failureBox(f, isError) {
          const where = f.file ? f.file + ':' + f.line + ':' + f.column : '';
          const multi = String(f.expected || '').includes('\n') || String(f.actual || '').includes('\n');
          return h('div', { class: 'failure' + (isError ? ' error' : '') }, [
            h('div', { class: 'msg', text: (f.hop ? '[' + (HOP_TITLES[f.hop] || f.hop) + '] ' : '') + f.message }),
            where ? h('div', { class: 'where', text: where }) : null,
            f.diff ? h('div', {}, [h('div', { class: 'hint', text: 'expected ' + f.expected }), changesView(f.diff),
              h('details', {}, [h('summary', { class: 'hint', text: 'as the transcript says it' }), h('pre', { text: f.actual })])])
            : f.expected || f.actual ? (multi
              ? h('div', {}, [h('div', { class: 'hint', text: 'expected (−) vs actual (+)' }), lineDiff(f.expected, f.actual)])
              : h('div', { class: 'ea' }, [h('span', { class: 'k', text: 'expected' }), h('span', { class: 'mono', text: f.expected }),
                  h('span', { class: 'k', text: 'actual' }), h('span', { class: 'mono', text: f.actual })])) : null,
            f.events ? h('pre', { text: f.events }) : null]);
        }
        """#
}
