extension WebUI {
    /// The HTML report: overview (totals, duration, seed, shard), filters (outcome, tag, suite, text), the scenario
    /// list (failed first; `#<scenario id>` opens one) and a scenario's detail: failures, sequence diagram, pictures,
    /// retries and transcript.
    static let reportScript = #"""
        // The embedded data: JSON, or once large {"encoding": "gzip+base64", "data": …} inflated in the page.
        async function reportData() {
          const raw = JSON.parse(document.getElementById('pushcheck-data').textContent);
          if (!raw || raw.encoding !== 'gzip+base64') return raw;
          const bytes = Uint8Array.from(atob(raw.data), c => c.charCodeAt(0));
          const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
          return JSON.parse(await new Response(stream).text());
        }
        reportData().then(function (data) {
          const app = document.getElementById('app');
          const cases = [];
          for (const suite of data.suites || []) for (const c of suite.cases || []) {
            c.suite = suite.name;
            c.suiteTitle = suite.title && suite.title !== suite.name ? suite.title : '';
            cases.push(c);
          }
          // A suite as people name it: its `name:` with its file (the path alone when it has none).
          const suiteLabel = (title, path) => title ? title + ' · ' + path : path;
          const rank = c => c.outcome === 'failed' ? 0 : c.outcome === 'error' ? 1 : c.flaky ? 2 : c.outcome === 'passed' ? 3 : 4;
          cases.forEach((c, i) => { c.order = i; });
          cases.sort((a, b) => rank(a) - rank(b) || a.order - b.order);
          const state = { outcome: 'all', tag: '', suite: '', text: '', selected: null };
          const t = data.totals || {};
          const counts = { all: cases.length, failed: (t.failures || 0) + (t.errors || 0), flaky: t.flaky || 0,
            passed: t.passed || 0, skipped: t.skipped || 0 };
          const seconds = v => v === undefined || v === null ? '' : (v < 10 ? v.toFixed(2) : v.toFixed(1)) + ' s';

          const facts = [data.timestamp, data.hostname && 'on ' + data.hostname,
            'duration ' + seconds(data.wall_seconds !== undefined ? data.wall_seconds : t.time),
            data.seed !== undefined && 'seed ' + data.seed, data.seeds && 'seeds ' + data.seeds.join(', '),
            data.shard && data.shard !== '1/1' && 'shard ' + data.shard, data.shards && 'shards ' + data.shards,
            data.generator].filter(Boolean);
          app.appendChild(h('header', { class: 'top' }, [h('h1', { text: data.name === 'pushcheck' ? 'pushcheck report' : data.name }),
            h('div', { class: 'facts' }, facts.map(f => h('span', { text: f })))]));
          const main = h('main');
          app.appendChild(main);

          const chipDefs = [['all', 'All'], ['failed', 'Failed'], ['flaky', 'Flaky'], ['passed', 'Passed'], ['skipped', 'Skipped']];
          const chips = h('div', { class: 'chips', role: 'group', 'aria-label': 'outcome' }, chipDefs.map(([k, label]) =>
            h('button', { class: 'chip', type: 'button', 'data-outcome': k, 'aria-pressed': String(k === state.outcome),
              on: { click: () => { state.outcome = k; refresh(); } } }, [label, h('span', { class: 'n', text: counts[k] })])));
          const tags = Array.from(new Set(cases.flatMap(c => c.tags || []))).sort();
          const suites = (data.suites || []).map(x => [x.name, x.title && x.title !== x.name ? x.title : '']);
          const tagSelect = h('select', { id: 'tag', 'aria-label': 'tag', on: { change: ev => { state.tag = ev.target.value; refresh(); } } },
            [h('option', { value: '', text: 'every tag' }), ...tags.map(x => h('option', { value: x, text: x }))]);
          const suiteSelect = h('select', { id: 'suite', 'aria-label': 'suite', on: { change: ev => { state.suite = ev.target.value; refresh(); } } },
            [h('option', { value: '', text: 'every suite' }), ...suites.map(([x, t]) => h('option', { value: x, text: suiteLabel(t, x) }))]);
          const search = h('input', { type: 'search', id: 'search', placeholder: 'search names, messages, transcripts',
            on: { input: ev => { state.text = ev.target.value.toLowerCase(); refresh(); } } });
          main.appendChild(chips);
          main.appendChild(h('div', { class: 'filters' }, [search, tagSelect, suiteSelect]));
          const list = h('div', { class: 'list', id: 'list', role: 'list' });
          const detail = h('section', { class: 'detail', id: 'detail' },
            [h('div', { class: 'empty', text: 'Pick a scenario on the left.' })]);
          main.appendChild(h('div', { class: 'layout' }, [list, detail]));

          function matches(c) {
            if (state.outcome === 'failed' && c.outcome !== 'failed' && c.outcome !== 'error') return false;
            if (state.outcome === 'flaky' && !c.flaky) return false;
            if (state.outcome === 'passed' && c.outcome !== 'passed') return false;
            if (state.outcome === 'skipped' && c.outcome !== 'skipped') return false;
            if (state.tag && !(c.tags || []).includes(state.tag)) return false;
            if (state.suite && c.suite !== state.suite) return false;
            if (state.text) {
              const hay = [c.name, c.suite, c.suiteTitle, (c.tags || []).join(' '), c.problem && c.problem.message, c.transcript,
                ...(c.failures || []).map(f => f.message)].join('\n').toLowerCase();
              if (!hay.includes(state.text)) return false;
            }
            return true;
          }
          function outcomeWord(c) { return c.outcome === 'passed' && c.flaky ? 'flaky' : c.outcome; }
          function refresh() {
            chips.querySelectorAll('.chip').forEach(b => b.setAttribute('aria-pressed', String(b.dataset.outcome === state.outcome)));
            clear(list);
            const shown = cases.filter(matches);
            for (const c of shown) {
              list.appendChild(h('div', { class: 'row o-' + c.outcome + (state.selected === c.id ? ' selected' : ''),
                role: 'listitem', tabindex: 0, 'data-id': c.id, 'data-outcome': outcomeWord(c), on: { click: () => open(c.id),
                  keydown: ev => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(c.id); } } } }, [
                h('span', { class: 'dot', title: outcomeWord(c) }),
                h('div', {}, [h('div', { class: 'name' }, [c.name, c.flaky ? h('span', { class: 'badge flaky', text: 'flaky' }) : null,
                  !c.flaky && c.retries && c.retries.length ? h('span', { class: 'badge retried', text: c.retries.length + ' retries' }) : null]),
                  h('div', { class: 'suite', text: suiteLabel(c.suiteTitle, c.suite) })]),
                h('span', { class: 'time', text: seconds(c.time) })]));
            }
            if (!shown.length) list.appendChild(h('div', { class: 'empty', text: 'No scenario matches these filters.' }));
          }
          function open(id) {
            if (location.hash.slice(1) !== encodeURIComponent(id)) location.hash = encodeURIComponent(id);
            else show(id);
          }
          function show(id) {
            const c = cases.find(x => x.id === id);
            state.selected = c ? c.id : null;
            list.querySelectorAll('.row').forEach(r => r.classList.toggle('selected', r.dataset.id === state.selected));
            clear(detail);
            if (!c) { detail.appendChild(h('div', { class: 'empty', text: id ? 'No scenario ' + id + ' in this report.' : 'Pick a scenario on the left.' })); return; }
            detail.appendChild(scenarioDetail(c));
          }
          function scenarioDetail(c) {
            const where = (c.suiteTitle ? c.suiteTitle + ' · ' : '') + (c.file ? c.file + (c.line ? ':' + c.line : '') : c.suite);
            const out = [h('h2', {}, [h('span', { class: 'dot o-' + c.outcome }), ' ', c.name]),
              h('div', { class: 'where', text: where + ' · ' + seconds(c.time) + ' · ' + outcomeWord(c) }),
              c.tags && c.tags.length ? h('div', {}, c.tags.map(x => h('span', { class: 'badge tag', text: x }))) : null];
            if (c.outcome === 'skipped') out.push(h('div', { class: 'hint', text: 'skipped: ' + (c.skipped || '') }));
            if (c.failures && c.failures.length) {
              out.push(h('h3', { text: 'Failed checks' }));
              for (const f of c.failures) out.push(failureBox(f));
            } else if (c.problem) {
              out.push(h('h3', { text: c.outcome === 'error' ? 'Error (' + c.problem.type + ')' : 'Failure' }));
              out.push(failureBox({ message: c.problem.message, events: c.problem.detail }, c.outcome === 'error'));
            }
            const trace = c.trace || [];
            if (trace.length) {
              out.push(h('h3', { text: 'What happened, hop by hop' }));
              const panel = h('div', { id: 'hop-detail' });
              const bad = failureEvents(trace, c.failures);
              const select = i => { clear(panel); panel.appendChild(hopDetail(trace[i], bad.get(i))); };
              out.push(sequenceDiagram(trace, c.failures, select), panel);
              const first = bad.size ? Math.min(...bad.keys()) : 0;
              select(first);
              out.push(...picturesOf(trace));
            } else {
              out.push(h('div', { class: 'hint', text: 'No hop-by-hop trace was recorded for this scenario: the transcript below is what happened.' }));
            }
            for (const [i, r] of (c.retries || []).entries()) {
              out.push(h('details', { class: 'retry' }, [h('summary', { text: 'attempt ' + (i + 1) + ': ' + r.kind + ': ' + r.problem.message }),
                r.problem.detail ? h('pre', { text: r.problem.detail }) : null, h('pre', { text: r.transcript })]));
            }
            out.push(h('h3', { text: 'Transcript' + (c.retries && c.retries.length ? ' (final attempt)' : '') }));
            out.push(h('pre', { class: 'transcript', text: c.transcript || '(empty)' }));
            if (c.stderr) out.push(h('h3', { text: 'Standard error' }), h('pre', { text: c.stderr }));
            return h('div', {}, out);
          }
          // The pictures people would rather look at: every notification the device showed (and Notification
          // Center with all of them), the screens after the last navigation, every page loaded.
          function picturesOf(trace) {
            const out = [];
            const shown = trace.filter(e => e.notification).map(e => e.notification);
            if (shown.length) {
              // The last one's delivery: the events after the previous delivery or presentation, up to it.
              const at = trace.map(e => !!e.notification).lastIndexOf(true);
              let from = at;
              while (from > 0 && trace[from - 1].kind !== 'delivery' && !trace[from - 1].notification) from--;
              out.push(h('h3', { text: 'Notifications' }));
              out.push(notificationPictures(shown[shown.length - 1], trace.slice(from, at)));
              if (shown.length > 1) out.push(h('div', { class: 'pictures', style: 'margin-top:10px' },
                [notificationCenter(shown), lockScreen(shown)]));
            }
            const navs = trace.filter(e => e.navigation);
            if (navs.length) out.push(h('h3', { text: 'Screens' }), screensRow(navs[navs.length - 1].navigation));
            const pages = trace.filter(e => e.page);
            if (pages.length) { out.push(h('h3', { text: 'Pages' })); for (const p of pages) out.push(pageView(p.page)); }
            return out;
          }
          const hashID = () => { try { return decodeURIComponent(location.hash.slice(1)); } catch (_) { return location.hash.slice(1); } };
          window.addEventListener('hashchange', () => show(hashID()));
          refresh();
          if (location.hash.length > 1) show(hashID());
          else if (counts.failed && cases.length) show(cases[0].id);
          document.body.setAttribute('data-ready', 'true');
        });
        """#
}
