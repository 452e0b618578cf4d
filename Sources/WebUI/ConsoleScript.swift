extension WebUI {
    /// `serve`'s console at `/ui`: a send form like Apple's Push Notifications Console (checked by the gateway's
    /// rules as you type, the answer with its reason), the live delivery log (APNs and FCM) with each request's
    /// detail, and every device (apps, tokens, Notification Center you can tap, screens, page, action buttons).
    /// It reads and acts through the control endpoint's routes and waits on `/ui/api/changes` (a long poll).
    static let consoleScript = #"""
        (function () {
          const facts = JSON.parse(document.getElementById('pushcheck-data').textContent) || {};
          const app = document.getElementById('app');
          const state = { version: '', apnsLast: 0, log: [], fcm: [], selected: null, devices: [], snapshots: {} };
          async function api(method, path, body) {
            const init = { method: method, cache: 'no-store', headers: {} };
            if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
            let r;
            try { r = await fetch(path, init); } catch (e) { disconnected(); throw new Unreachable(e); }
            let json = null;
            try { json = await r.json(); } catch (_) { json = null; }
            return { status: r.status, json: json };
          }
          // serve did not answer at all (stopped, restarted): the header says so at once, whoever asked.
          class Unreachable extends Error {
            constructor(cause) { super('serve is unreachable (' + (cause && cause.message || cause) + ')'); }
          }
          function disconnected() {
            const status = document.getElementById('live');
            if (status) { status.textContent = 'disconnected (retrying)'; status.className = 'down'; }
          }
          // Runs `work`; a failed fetch is already in the header, so it is not thrown again (no uncaught rejection).
          async function quietly(work) {
            try { return await work(); } catch (e) { if (!(e instanceof Unreachable)) throw e; }
          }
          const sleep = t => new Promise(r => setTimeout(r, t));
          const short = (s, n) => !s ? '' : s.length > (n || 14) ? s.slice(0, n || 14) + '…' : s;
          const appFacts = bundle => (facts.apps || []).find(a => a.bundle_id === bundle) || { tabs: [], categories: {} };

          app.appendChild(h('header', { class: 'top' }, [h('h1', { text: 'pushcheck console' }),
            h('div', { class: 'facts' }, [h('span', { text: location.host }),
              h('span', { text: 'APNs ' + (facts.endpoints || []).join(' + ') + (facts.fcm ? ' · FCM' : '') }),
              h('span', { id: 'live', text: 'connecting…' })])]));
          const left = h('div'), right = h('div');
          app.appendChild(h('main', {}, [h('div', { class: 'console' }, [left, right])]));

          // MARK: send form
          const field = (label, input) => [h('label', { for: input.id, text: label }), input];
          const target = h('select', { id: 'target' });
          const token = h('input', { id: 'token', placeholder: 'device token (hex)', spellcheck: 'false' });
          const topic = h('input', { id: 'topic', placeholder: 'bundle id (apns-topic)' });
          const endpoint = h('select', { id: 'endpoint' }, (facts.endpoints || ['sandbox']).map(e => h('option', { value: e, text: e })));
          const pushType = h('select', { id: 'push_type' }, (facts.push_types || ['alert']).map(t => h('option', { value: t, text: t })));
          const priority = h('select', { id: 'priority' }, [['', 'default'], ['10', '10 (immediately)'], ['5', '5 (power considerate)'],
            ['1', '1 (low)']].map(([v, t]) => h('option', { value: v, text: t })));
          const expiration = h('input', { id: 'expiration', placeholder: 'UNIX seconds; 0 = deliver once or never; empty = none' });
          const collapse = h('input', { id: 'collapse_id', placeholder: 'apns-collapse-id (optional)' });
          const apnsID = h('input', { id: 'apns_id', placeholder: 'apns-id (optional, lowercase UUID)' });
          const auth = h('select', { id: 'auth' }, [['console', 'console key (signed for the app\u2019s team)'],
            ['bearer', 'paste a provider token'], ['none', 'no provider token']].map(([v, t]) => h('option', { value: v, text: t })));
          const bearer = h('input', { id: 'bearer', placeholder: 'eyJ… (JWT)', style: 'display:none', spellcheck: 'false' });
          const payload = h('textarea', { id: 'payload', spellcheck: 'false' });
          payload.value = JSON.stringify({ aps: { alert: { title: 'Hello', body: 'Sent from the pushcheck console' } } }, null, 2);
          // FCM (HTTP v1): the message as typed, for a project, with the console's service account.
          const via = h('select', { id: 'via' }, [['apns', 'APNs'], ...(facts.fcm ? [['fcm', 'FCM (HTTP v1)']] : [])]
            .map(([v, t]) => h('option', { value: v, text: t })));
          const fcmTarget = h('select', { id: 'fcm_target' });
          const project = h('select', { id: 'project' }, (facts.fcm_projects || []).map(p => h('option', { value: p, text: p })));
          const validateOnly = h('input', { id: 'validate_only', type: 'checkbox' });
          const fcmAuth = h('select', { id: 'fcm_auth' }, [['console', 'console service account'],
            ['bearer', 'paste an access token'], ['none', 'no access token']].map(([v, t]) => h('option', { value: v, text: t })));
          const fcmBearer = h('input', { id: 'fcm_bearer', placeholder: 'access token from /token', style: 'display:none', spellcheck: 'false' });
          const message = h('textarea', { id: 'message', spellcheck: 'false' });
          message.value = JSON.stringify({ token: '', notification: { title: 'Hello', body: 'Sent from the pushcheck console' } }, null, 2);
          const hint = h('div', { class: 'hint wide', id: 'check', text: '' });
          const send = h('button', { class: 'act primary', type: 'button', id: 'send', text: 'Send' });
          const answer = h('div', { id: 'answer' });
          const apnsForm = h('div', { class: 'form', id: 'apns-form' }, [...field('device / app', target), ...field('token', token),
            ...field('topic', topic), ...field('environment', endpoint), ...field('push type', pushType), ...field('priority', priority),
            ...field('expiration', expiration), ...field('collapse id', collapse), ...field('apns-id', apnsID),
            ...field('authorization', auth), h('span', {}), bearer,
            h('label', { class: 'wide', for: 'payload', text: 'payload' }), h('div', { class: 'wide' }, [payload])]);
          const fcmForm = h('div', { class: 'form', id: 'fcm-form', style: 'display:none' }, [...field('device / app', fcmTarget),
            ...field('project', project), ...field('validate only', validateOnly), ...field('authorization', fcmAuth),
            h('span', {}), fcmBearer, h('label', { class: 'wide', for: 'message', text: 'message (v1 Message)' }),
            h('div', { class: 'wide' }, [message])]);
          left.appendChild(h('section', { class: 'panel', id: 'send-panel' }, [h('h2', { text: 'Send a push' }),
            h('div', { class: 'form' }, [...field('send via', via)]), apnsForm, fcmForm,
            h('div', { class: 'form' }, [hint, h('div', { class: 'wide' }, [send])]), answer]));
          const isFCM = () => via.value === 'fcm';
          function form() {
            if (isFCM()) return { via: 'fcm', project: project.value, message: message.value, validate_only: validateOnly.checked,
              auth: fcmAuth.value, bearer: fcmAuth.value === 'bearer' ? fcmBearer.value : '' };
            return { endpoint: endpoint.value, token: token.value, topic: topic.value, push_type: pushType.value,
              priority: priority.value, expiration: expiration.value, collapse_id: collapse.value, apns_id: apnsID.value,
              payload: payload.value, auth: auth.value, bearer: auth.value === 'bearer' ? bearer.value : '' };
          }
          // A Firebase app's token goes into the message's target (replacing a topic or condition); its project is picked.
          function pickFCMTarget() {
            const [device, app] = (fcmTarget.value || '|').split('|');
            const d = state.devices.find(x => x.name === device);
            const t = d && (d.fcm_tokens || {})[app];
            if (!t) return;
            if ((facts.fcm_apps || {})[app]) project.value = facts.fcm_apps[app];
            try {
              const m = JSON.parse(message.value);
              delete m.topic; delete m.condition; m.token = t;
              message.value = JSON.stringify(m, null, 2);
            } catch (_) { /* not JSON: left as typed */ }
            check();
          }
          fcmTarget.addEventListener('change', pickFCMTarget);
          via.addEventListener('change', () => {
            apnsForm.style.display = isFCM() ? 'none' : '';
            fcmForm.style.display = isFCM() ? '' : 'none';
            clear(answer);
            if (isFCM() && fcmTarget.value && !/"token"\s*:\s*"[^"]/.test(message.value)) pickFCMTarget(); else check();
          });
          fcmAuth.addEventListener('change', () => { fcmBearer.style.display = fcmAuth.value === 'bearer' ? '' : 'none'; check(); });
          function pickTarget() {
            const [device, bundle, kind] = (target.value || '|').split('|');
            const d = state.devices.find(x => x.name === device);
            if (!d) return;
            // A PushKit or other per-purpose token (push_tokens): its push type and topic suffix; else the device token.
            const other = kind ? ((d.push_tokens || {})[bundle] || {})[kind] : undefined;
            token.value = other || (d.tokens || {})[bundle] || '';
            topic.value = bundle + (other ? ((facts.topic_suffixes || {})[kind] || '') : '');
            if (other && (facts.push_types || []).includes(kind)) pushType.value = kind;
            else if (!other && pushType.value !== 'background') pushType.value = 'alert';
            const snap = state.snapshots[device];
            const env = snap && snap.apps && snap.apps[bundle] && snap.apps[bundle].environment;
            if (env === 'production' || env === 'sandbox') endpoint.value = env;
            check();
          }
          target.addEventListener('change', pickTarget);
          auth.addEventListener('change', () => { bearer.style.display = auth.value === 'bearer' ? '' : 'none'; check(); });
          let timer = null;
          for (const input of [token, topic, endpoint, pushType, priority, expiration, collapse, apnsID, payload, bearer,
            project, validateOnly, message, fcmBearer])
            for (const type of ['input', 'change'])
              input.addEventListener(type, () => { clearTimeout(timer); timer = setTimeout(check, 250); });
          // The gateway's own request rules on the form, nothing sent (POST /ui/api/check).
          // Only the latest check's answer is drawn: an older one answering late (or twice on load) is dropped.
          let checks = 0;
          async function check() {
            const mine = ++checks;
            const fcm = isFCM();
            let notJSON = null;
            try { JSON.parse(fcm ? message.value : payload.value); } catch (e) {
              notJSON = (fcm ? 'message' : 'payload') + ' is not JSON: ' + e.message;
            }
            let r;
            try { r = await api('POST', '/ui/api/check', form()); } catch (e) {
              if (!(e instanceof Unreachable)) throw e;
              r = { status: 0, json: { error: 'not checked: ' + e.message } };
            }
            if (mine !== checks) return;
            clear(hint);
            if (notJSON) { hint.className = 'hint wide bad'; hint.appendChild(h('div', { text: notJSON })); }
            if (!r.json) return;
            if (r.status !== 200) { hint.className = 'hint wide bad'; hint.appendChild(h('div', { text: r.json.error })); return; }
            if (r.json.ok) {
              hint.className = 'hint wide ok';
              hint.appendChild(h('div', { text: fcm ? '✓ passes FCM\u2019s message rules (' + r.json.body_bytes + ' bytes)'
                : '✓ passes the gateway\u2019s request rules (' + r.json.payload_bytes + ' bytes)' }));
              for (const w of r.json.warnings || []) hint.appendChild(h('div', { class: 'warning', text: '⚠ ' + w.message }));
            } else {
              hint.className = 'hint wide bad';
              for (const p of r.json.problems) hint.appendChild(h('div', { class: 'problem', 'data-reason': p.reason,
                text: p.status + ' ' + p.reason + ': ' + p.message }));
            }
          }
          send.addEventListener('click', async () => {
            send.disabled = true;
            clear(answer);
            try {
              const r = await api('POST', '/ui/api/send', form());
              const a = r.json || {};
              const ok = r.status === 200 && a.status === 200;
              const fcm = isFCM();
              // FCM's status and error code are often the same word (INVALID_ARGUMENT): said once.
              const said = fcm ? (a.status === 200 ? ' OK'
                : ' ' + [a.error_status, a.error_code].filter((x, i, all) => x && all.indexOf(x) === i).join(' '))
                : (a.reason ? ' ' + a.reason : ' OK');
              answer.appendChild(h('div', { class: 'answer ' + (ok ? 'ok' : 'bad'), id: 'answer-box', 'data-status': a.status || r.status }, [
                h('div', { class: 'status ' + (ok ? 'ok' : 'bad'), text: r.status === 200
                  ? a.status + said : 'not sent (' + r.status + '): ' + (a.error || '') }),
                a.message ? h('div', { text: a.message }) : null,
                a.detail && a.detail !== a.message ? h('div', { class: 'hint', text: a.detail }) : null,
                kvTable(fcm ? [['name', a.name], ['authorization', a.auth], ['http', a.http_version], ['FCM log #', a.log_sequence]]
                  : [['apns-id', a.apns_id], ['apns-unique-id', a.apns_unique_id], ['timestamp', a.timestamp],
                    ['authorization', a.auth], ['http', a.http_version], ['log #', a.log_sequence], ['help', a.help]])]));
            } catch (e) {
              if (!(e instanceof Unreachable)) throw e;
              answer.appendChild(h('div', { class: 'answer bad', id: 'answer-box', 'data-status': 0 }, [
                h('div', { class: 'status bad', text: 'not sent: ' + e.message })]));
            } finally { send.disabled = false; }
            await quietly(refresh);
          });

          // MARK: delivery log (APNs and FCM), newest first; a row opens its detail
          const logBody = h('tbody', { id: 'log-rows' });
          const logDetail = h('div', { id: 'log-detail' });
          left.appendChild(h('section', { class: 'panel' }, [h('h2', { text: 'Delivery log' }),
            h('table', { class: 'log' }, [h('thead', {}, [h('tr', {}, ['#', 'time', 'via', 'request', 'status'].map(x => h('th', { text: x })))]),
              logBody]), logDetail]));
          function time(msOrISO) { const d = new Date(msOrISO); return isNaN(d) ? '' : d.toLocaleTimeString(); }
          function drawLog(fresh) {
            clear(logBody);
            const rows = state.log.map(e => ({ key: 'a' + e.sequence, at: e.received_at, e: e, fcm: false }))
              .concat(state.fcm.map(e => ({ key: 'f' + e.sequence, at: Date.parse(e.received_at), e: e, fcm: true })))
              .sort((x, y) => y.at - x.at || (y.key > x.key ? 1 : -1));
            for (const r of rows) {
              const e = r.e;
              const what = r.fcm ? e.method + ' ' + e.path : (e.push_type || '?') + ' → ' + short(e.token, 12) + ' ' + (e.topic || '');
              const tr = h('tr', { class: (state.selected === r.key ? 'selected ' : '') + (fresh.has(r.key) ? 'fresh' : ''),
                'data-key': r.key, 'data-status': e.status, on: { click: () => { state.selected = r.key; drawLog(new Set()); showEntry(r); } } },
                [h('td', { text: (r.fcm ? 'F' : '') + e.sequence }), h('td', { text: time(r.at) }),
                  h('td', { text: r.fcm ? 'FCM' : 'APNs ' + e.endpoint }), h('td', { text: what }),
                  h('td', { class: 'status ' + (e.status === 200 ? 'ok' : 'bad'),
                    text: e.status + (e.reason ? ' ' + e.reason : '') + (r.fcm && e.error_code ? ' ' + e.error_code : '') })]);
              logBody.appendChild(tr);
            }
            if (!rows.length) logBody.appendChild(h('tr', {}, [h('td', { colspan: 5, class: 'hint', text: 'No requests yet: send one.' })]));
          }
          function showEntry(r) {
            clear(logDetail);
            const e = r.e;
            if (r.fcm) {
              logDetail.appendChild(h('div', { class: 'hop-detail' }, [h('h4', { text: 'FCM ' + e.method + ' ' + e.path + ' → ' + e.status }),
                kvTable([['project', e.project], ['error', e.error_code], ['message', e.error_message], ['name', e.name]]),
                h('pre', { text: prettyBody(JSON.stringify(e.request || null)) }),
                ...(e.apns || []).map(x => h('div', {}, [h('div', { class: 'hint', text: 'became APNs ' + x.endpoint + ' → ' + x.status + (x.reason ? ' ' + x.reason : '') }),
                  h('pre', { text: prettyBody(JSON.stringify(x.payload)) })]))]));
              return;
            }
            const authz = (e.headers || []).find(x => x.name === 'authorization');
            const jwt = authz && decodeJWT(authz.value);
            logDetail.appendChild(h('div', { class: 'hop-detail' }, [
              h('h4', { text: e.method + ' ' + e.path }),
              kvTable([['status', e.status + (e.reason ? ' ' + e.reason : '')], ['why', e.detail], ['endpoint', e.endpoint],
                ['connection', e.connection], ['apns-id', e.apns_id], ['apns-unique-id', e.apns_unique_id],
                ['auth', e.auth && (e.auth.kind + (e.auth.team_id ? ' team ' + e.auth.team_id + ' key ' + e.auth.key_id : '') + (e.auth.uid ? ' ' + e.auth.uid : ''))],
                ['took', e.answered_at - e.received_at + ' ms'], ['fault', e.fault ? 'yes' : undefined],
                ['payload', e.payload_truncated ? 'cut: ' + e.payload_size + ' bytes received' : undefined]]),
              h('div', { class: 'hint', text: 'headers' }), headersTable(e.headers),
              jwt ? jwtView(jwt) : null, h('div', { class: 'hint', text: 'payload' }), h('pre', { class: 'body', text: prettyBody(e.payload) })]));
          }

          // MARK: devices
          const devicesPanel = h('section', { class: 'panel', id: 'devices' }, [h('h2', { text: 'Devices' })]);
          right.appendChild(devicesPanel);
          // What the last action on a device came to, when it was not simply done: a refusal, or a page the web
          // view did not load (a cancelled scheme, a failed fetch). Drawn in the device's section.
          const notes = {};
          function actionNote(r) {
            if (r.status !== 200) return (r.json && r.json.error) || ('action failed: ' + r.status);
            const web = ((r.json && r.json.events) || []).filter(e => e.type === 'web-view' && e.outcome !== 'loaded');
            return web.map(e => 'page ' + e.outcome + (e.url ? ' ' + e.url : '') + (e.reason ? ': ' + e.reason : '') +
              (e.error ? ': ' + e.error : '')).join('\n') || undefined;
          }
          async function act(device, action) {
            try {
              notes[device] = actionNote(await api('POST', '/devices/' + encodeURIComponent(device) + '/actions', action));
            } catch (e) {
              if (!(e instanceof Unreachable)) throw e;
              notes[device] = 'not done: ' + e.message;
              drawDevices();
              return;
            }
            await quietly(refresh);
          }
          async function resetDevice(name) {
            delete notes[name];
            await quietly(async () => { await api('POST', '/devices/' + encodeURIComponent(name) + '/reset', {}); await refresh(); });
          }
          const noteLine = name => notes[name] ? h('div', { class: 'hint bad device-note', text: notes[name] }) : null;
          // Each device's section is redrawn only when its snapshot changed (a redraw would close an open menu and
          // lose focus); the app picked in its menu is kept across redraws.
          const drawn = new Map();
          const appChoice = {};
          function drawDevices() {
            const names = new Set(state.devices.map(d => d.name));
            for (const [name, entry] of drawn) if (!names.has(name)) { entry.section.remove(); drawn.delete(name); }
            const none = devicesPanel.querySelector('.no-devices');
            if (none && state.devices.length) none.remove();
            if (!state.devices.length && !none) devicesPanel.appendChild(h('div', { class: 'hint no-devices', text: 'No simulated devices: declare apps: and devices: in the config.' }));
            for (const d of state.devices) {
              const snap = state.snapshots[d.name] || { apps: {}, notification_center: [] };
              const key = JSON.stringify([d, snap, notes[d.name] || '']);
              const old = drawn.get(d.name);
              if (old && old.key === key) continue;
              const section = deviceSection(d, snap);
              if (old) old.section.replaceWith(section); else devicesPanel.appendChild(section);
              drawn.set(d.name, { key: key, section: section });
            }
          }
          // An Android phone (snapshot platform android): its tray drawn as the notification list, its task's
          // activities as the screens, the Android actions as buttons.
          function androidSection(d, snap) {
            const pkgs = Object.keys(snap.apps || {}).sort();
            const pick = h('select', { 'aria-label': 'app', on: { change: ev => { appChoice[d.name] = ev.target.value; } } },
              pkgs.map(b => h('option', { value: b, text: b })));
            if (pkgs.includes(appChoice[d.name])) pick.value = appChoice[d.name];
            const withApp = (name, value) => () => { const a = {}; a[name] = value === undefined ? pick.value : value; if (pkgs.length > 1 && value !== undefined) a.app = pick.value; return act(d.name, a); };
            const button = (label, fn) => h('button', { class: 'act', type: 'button', 'data-action': label, text: label, on: { click: fn } });
            const tray = (snap.tray || []).map(n => ({ id: n.id, bundle_id: n.package, app_name: n.package + ' · ' + (n.channel || 'no channel'),
              title: n.title, body: n.body, thread_id: n.tag, actions: [] }));
            const section = h('div', { class: 'device', 'data-device': d.name, 'data-platform': 'android' }, [
              h('h3', { style: 'margin:0', text: d.name }),
              h('div', { class: 'facts-line', text: (snap.serial || d.udid) + ' · ' + (snap.online === false ? 'offline' : 'online') +
                ' · Android API ' + snap.api_level + (snap.doze ? ' · Doze' : '') }),
              h('div', {}, [pick, ...['launch', 'background', 'terminate', 'force_stop', 'clear_data'].map(a => button(a, withApp(a))),
                button('tap latest', withApp('tap', 'latest')), button('dismiss latest', withApp('dismiss', 'latest')),
                button('back', withApp('back', true)), button('load page', withApp('load_page', true)),
                button(snap.doze ? 'doze off' : 'doze on', () => act(d.name, { doze: !snap.doze })),
                button(snap.online === false ? 'go online' : 'go offline', () => act(d.name, { online: snap.online === false })),
                button('reset', () => resetDevice(d.name))]), noteLine(d.name)]);
            for (const b of pkgs) {
              const a = snap.apps[b];
              section.appendChild(h('div', { class: 'facts-line', 'data-app': b, text: b + ': ' + a.state + ' · POST_NOTIFICATIONS ' +
                a.permission + ' · FCM ' + (a.fcm_token ? short(a.fcm_token, 16) : 'none') + ' · task ' +
                ((a.task || []).map(t => t.activity + (t.stack.length ? ' > ' + t.stack.join(' > ') : '')).join(' | ') || 'none') }));
            }
            const pics = [notificationCenter(tray, { title: 'Notifications', empty: 'No notifications', caption: 'notification shade', onTap: n => act(d.name, Object.assign({ tap: n.id }, pkgs.length > 1 ? { app: n.bundle_id } : {})) })];
            section.appendChild(h('div', { class: 'pictures' }, pics));
            return section;
          }
          function deviceSection(d, snap) {
            if (snap.platform === 'android') return androidSection(d, snap);
            const bundles = Object.keys(snap.apps || {}).sort();
            const appPick = h('select', { 'aria-label': 'app', on: { change: ev => { appChoice[d.name] = ev.target.value; } } },
              bundles.map(b => h('option', { value: b, text: b })));
            if (bundles.includes(appChoice[d.name])) appPick.value = appChoice[d.name];
            const withApp = (name, value) => () => { const a = {}; a[name] = value === undefined ? appPick.value : value; if (bundles.length > 1 && value !== undefined) a.app = appPick.value; return act(d.name, a); };
            const button = (label, fn) => h('button', { class: 'act', type: 'button', 'data-action': label, text: label, on: { click: fn } });
            const nc = (snap.notification_center || []).map(n => Object.assign({ app_name: n.bundle_id,
              actions: ((appFacts(n.bundle_id).categories || {})[n.category] || []).map(a => a.title) }, n));
            const section = h('div', { class: 'device', 'data-device': d.name }, [
              h('h3', { style: 'margin:0', text: d.name }),
              h('div', { class: 'facts-line', text: d.udid + ' · ' + (snap.online === false ? 'offline' : 'online') + ' · iOS ' + (snap.ios || '') }),
              h('div', {}, [appPick, ...['launch', 'background', 'suspend', 'terminate', 'force_quit'].map(a => button(a, withApp(a))),
                button('tap latest', withApp('tap', 'latest')), button('dismiss latest', withApp('dismiss', 'latest')),
                button('expand latest', withApp('expand', 'latest')), button('back', withApp('back', true)),
                button('load page', withApp('load_page', true)),
                button(snap.online === false ? 'go online' : 'go offline', () => act(d.name, { online: snap.online === false })),
                button('reset', () => resetDevice(d.name))]), noteLine(d.name)]);
            for (const b of bundles) {
              const a = snap.apps[b];
              section.appendChild(h('div', { class: 'facts-line', 'data-app': b, text: b + ': ' + a.state + ' · ' +
                (a.authorization && a.authorization.status) + (a.badge ? ' · badge ' + a.badge : '') + ' · token ' + (a.token || 'none') +
                (a.fcm_token ? ' · FCM ' + short(a.fcm_token, 16) : '') +
                Object.keys(a.push_tokens || {}).sort().map(k => ' · ' + k + ' ' + short(a.push_tokens[k], 16)).join('') }));
            }
            for (const la of ((snap.live_activities || {}).activities || [])) {
              section.appendChild(h('div', { class: 'facts-line', 'data-activity': la.id, text: 'Live Activity ' + la.id +
                ' ' + la.attributes_type + ' (' + la.bundle_id + '): ' + la.state + ' · ' + JSON.stringify(la.content_state) +
                (la.push_token ? ' · token ' + short(la.push_token, 16) : '') + (la.channel_id ? ' · channel ' + la.channel_id : '') }));
            }
            const pics = [notificationCenter(nc, { onTap: n => act(d.name, Object.assign({ tap: n.id }, bundles.length > 1 ? { app: n.bundle_id } : {})) })];
            for (const b of bundles) {
              const nav = snap.apps[b].navigation;
              if (!nav) continue;
              const tabs = appFacts(b).tabs || [];
              const picture = screensRow({ tabs: tabs, selected_tab: nav.selected_tab, stack: nav.stack, alert: nav.alert });
              picture.setAttribute('data-screens', b);
              pics.push(h('div', {}, [h('div', { class: 'hint', text: b + ' screens' }), picture,
                nav.alert ? h('div', {}, (nav.alert.buttons || []).map(t => button('answer ' + t, () => act(d.name, { answer_alert: t })))) : null]));
              const page = snap.apps[b].web_page;
              if (page) pics.push(pageView({ requested_url: page.requested_url, final_url: page.url, status: page.status,
                title: page.title, redirects: page.redirects, html: page.html,
                served_bytes: page.html_truncated ? page.served_bytes : undefined,
                text: (page.title || '') + '\n\nlinks:\n' + (page.links || []).join('\n') }));
            }
            section.appendChild(h('div', { class: 'pictures' }, pics));
            return section;
          }

          // MARK: live updates
          async function refresh(changes) {
            const fresh = new Set();
            // A cleared log (POST /reset, DELETE /apns/log) or a restarted serve numbers from 1 again: read it from
            // the start, or every new entry would sit below the old `after`.
            if (changes && changes.apns_last < state.apnsLast) { state.log = []; state.apnsLast = 0; }
            const log = await api('GET', '/apns/log?after=' + state.apnsLast);
            if (log.json && log.json.entries) {
              for (const e of log.json.entries) { state.log.unshift(e); fresh.add('a' + e.sequence); }
              state.apnsLast = log.json.next_after || state.apnsLast;
              state.log = state.log.slice(0, 500);
            }
            if (facts.fcm) {
              const f = await api('GET', '/fcm/log?limit=200');
              if (f.json && f.json.entries) {
                const known = new Set(state.fcm.map(e => e.sequence));
                for (const e of f.json.entries) if (!known.has(e.sequence)) fresh.add('f' + e.sequence);
                state.fcm = f.json.entries;
              }
            }
            const list = await api('GET', '/devices');
            if (list.json && list.json.devices) {
              const before = state.devices.length;
              state.devices = list.json.devices;
              for (const d of state.devices) {
                const s = await api('GET', '/devices/' + encodeURIComponent(d.name));
                if (s.json) state.snapshots[d.name] = s.json;
              }
              if (before !== state.devices.length || !target.options.length) {
                clear(target);
                for (const d of state.devices) for (const b of Object.keys(d.tokens || {}).sort()) {
                  target.appendChild(h('option', { value: d.name + '|' + b, text: d.name + ' · ' + b }));
                  for (const k of Object.keys((d.push_tokens || {})[b] || {}).sort())
                    target.appendChild(h('option', { value: d.name + '|' + b + '|' + k, text: d.name + ' · ' + b + ' · ' + k + ' token' }));
                }
                if (!token.value) pickTarget();
              }
              const fcmOptions = state.devices.flatMap(d => Object.keys(d.fcm_tokens || {}).sort()
                .map(b => [d.name + '|' + b, d.name + ' · ' + b + ' · ' + short(d.fcm_tokens[b], 12)]));
              if (JSON.stringify(fcmOptions) !== fcmTarget.dataset.options) {
                const picked = fcmTarget.value;
                clear(fcmTarget);
                for (const [v, t] of fcmOptions) fcmTarget.appendChild(h('option', { value: v, text: t }));
                fcmTarget.dataset.options = JSON.stringify(fcmOptions);
                if (fcmOptions.some(o => o[0] === picked)) fcmTarget.value = picked;
              }
            }
            drawLog(fresh);
            drawDevices();
          }
          async function live() {
            const status = document.getElementById('live');
            for (;;) {
              try {
                const r = await api('GET', '/ui/api/changes?since=' + encodeURIComponent(state.version) + '&wait=25');
                // 503: serve is stopping (it answers held polls at once); said now, not after its grace period.
                if (r.status === 503) { disconnected(); await sleep(1000); continue; }
                status.textContent = 'live';
                status.className = '';
                if (r.json && r.json.version !== state.version) { state.version = r.json.version; await refresh(r.json); }
              } catch (e) { disconnected(); await sleep(1000); }
            }
          }
          // A config without an iPhone app (an Android-only serve): the form opens on FCM, where there is something
          // to send to, rather than on APNs with no target and a MissingDeviceToken.
          async function start() {
            await quietly(refresh);
            if (facts.fcm && !target.options.length && fcmTarget.options.length) {
              via.value = 'fcm';
              via.dispatchEvent(new Event('change'));
            } else await check();
          }
          start().then(live);
        })();
        """#
}
