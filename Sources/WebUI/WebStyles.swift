extension WebUI {
    /// The one style sheet of the report and the console: layout, the iOS-like drawings (notification cards, lock
    /// screen, screens with tab bars and alerts), the sequence diagram. System fonts only; nothing is fetched.
    static let styles = #"""
        :root { --bg:#f5f5f7; --fg:#1d1d1f; --muted:#6e6e73; --line:#d2d2d7; --card:#fff; --pass:#1f8a3b;
          --fail:#d70015; --error:#b25000; --skip:#8e8e93; --flaky:#a05a00; --accent:#0066cc; --mono: ui-monospace,
          "DejaVu Sans Mono", Menlo, Consolas, monospace; --sans: -apple-system, "SF Pro Text", "Helvetica Neue",
          "DejaVu Sans", "Noto Sans CJK JP", Arial, sans-serif; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 var(--sans); color: var(--fg); background: var(--bg); }
        header.top { background: #1d1d1f; color: #fff; padding: 10px 18px; display: flex; gap: 18px;
          align-items: baseline; flex-wrap: wrap; }
        header.top h1 { font-size: 17px; margin: 0; font-weight: 600; }
        header.top .facts { color: #c7c7cc; font-size: 12px; display: flex; gap: 14px; flex-wrap: wrap; }
        header.top .facts .down { color: #ff6961; font-weight: 600; }
        main { padding: 14px 18px; }
        .chips { display: flex; gap: 8px; flex-wrap: wrap; margin-bottom: 10px; }
        .chip { border: 1px solid var(--line); background: var(--card); border-radius: 14px; padding: 3px 11px;
          cursor: pointer; font: inherit; color: inherit; }
        .chip[aria-pressed="true"] { background: var(--fg); color: #fff; border-color: var(--fg); }
        .chip .n { font-weight: 600; margin-left: 4px; }
        .filters { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin-bottom: 12px; }
        .filters input, .filters select, .form input, .form select, .form textarea { font: inherit;
          padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
        .filters input[type=search] { min-width: 240px; }
        .layout { display: grid; grid-template-columns: minmax(260px, 34%) 1fr; gap: 14px; align-items: start; }
        .list { background: var(--card); border: 1px solid var(--line); border-radius: 8px; overflow-y: auto;
          max-height: calc(100vh - 150px); }
        .row { display: grid; grid-template-columns: 16px 1fr auto; gap: 8px; padding: 7px 10px;
          border-bottom: 1px solid #ececf0; cursor: pointer; align-items: baseline; }
        .row:focus-visible { outline: 2px solid var(--accent); outline-offset: -2px; }
        .row:hover { background: #f0f4fa; } .row.selected { background: #e3edf9; }
        .row .name { font-weight: 500; overflow-wrap: anywhere; } .row .suite { color: var(--muted); font-size: 12px; }
        .row .time { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
        .dot { width: 10px; height: 10px; border-radius: 50%; display: inline-block; background: var(--skip); }
        .o-passed .dot, .dot.o-passed { background: var(--pass); } .o-failed .dot, .dot.o-failed { background: var(--fail); }
        .o-error .dot, .dot.o-error { background: var(--error); }
        .badge { font-size: 11px; border-radius: 4px; padding: 0 5px; margin-left: 6px; border: 1px solid; }
        .badge.flaky { color: var(--flaky); } .badge.retried { color: var(--muted); } .badge.tag { color: var(--accent); }
        .empty { padding: 14px; color: var(--muted); }
        .detail { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px;
          min-height: 200px; overflow: auto; position: sticky; top: 8px; max-height: calc(100vh - 16px); }
        .detail h2 { margin: 0 0 4px; font-size: 18px; overflow-wrap: anywhere; }
        .detail h3 { margin: 18px 0 6px; font-size: 14px; text-transform: uppercase; letter-spacing: .04em;
          color: var(--muted); }
        .where { color: var(--muted); font-family: var(--mono); font-size: 12px; }
        pre, .mono { font-family: var(--mono); font-size: 12px; }
        pre { background: #f6f6f8; border: 1px solid #e5e5ea; border-radius: 6px; padding: 8px 10px; overflow: auto;
          max-height: 480px; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
        .failure { border-left: 4px solid var(--fail); background: #fff5f5; padding: 8px 10px; margin: 8px 0;
          border-radius: 4px; } .failure.error { border-color: var(--error); background: #fff8f0; }
        .failure .msg { font-weight: 600; overflow-wrap: anywhere; }
        .ea { display: grid; grid-template-columns: 80px 1fr; gap: 2px 8px; margin-top: 6px; }
        .ea .k { color: var(--muted); font-size: 12px; }
        .diff .add { background: #e6ffec; color: #116329; } .diff .del { background: #ffebe9; color: #82071e; }
        .diff span { display: block; white-space: pre-wrap; } .diff .chg { background: #fff8c5; color: #7d4e00; }
        table.kv { border-collapse: collapse; width: 100%; font-size: 12px; }
        table.kv td { border-top: 1px solid #ececf0; padding: 3px 6px; vertical-align: top; overflow-wrap: anywhere; }
        table.kv td:first-child { font-family: var(--mono); color: var(--muted); width: 30%; }
        /* sequence diagram */
        .seq { overflow-x: auto; border: 1px solid #ececf0; border-radius: 6px; background: #fcfcfd; }
        .seq svg { display: block; font-family: var(--sans); font-size: 11px; }
        .seq .life-title { font-weight: 600; font-size: 11px; }
        .seq .life { stroke: #c7c7cc; stroke-dasharray: 4 3; }
        .seq .arrow { cursor: pointer; outline: none; } .seq .arrow line { stroke: #3a3a3c; stroke-width: 1.4; }
        .seq .arrow.back line { stroke-dasharray: 5 3; } .seq .arrow text { fill: #1d1d1f; }
        .seq .arrow:hover line, .seq .arrow.selected line { stroke: var(--accent); stroke-width: 2.4; }
        .seq .arrow.bad line { stroke: var(--fail); } .seq .arrow.bad text { fill: var(--fail); }
        .seq .arrow.drop line { stroke: var(--error); }
        .seq .hit { stroke: transparent; stroke-width: 14; }
        .seq .fail-mark { fill: var(--fail); font-weight: 700; }
        .hop-detail { border: 1px solid #e5e5ea; border-radius: 6px; padding: 8px 10px; margin-top: 8px; }
        .hop-detail h4 { margin: 0 0 6px; font-size: 13px; overflow-wrap: anywhere; }
        .status { font-weight: 600; } .status.ok { color: var(--pass); } .status.bad { color: var(--fail); }
        /* iOS drawings */
        .pictures { display: flex; gap: 18px; flex-wrap: wrap; align-items: flex-start; }
        .phone { width: 250px; min-height: 420px; border-radius: 34px; background: #111; padding: 10px;
          box-shadow: 0 2px 10px rgba(0,0,0,.2); position: relative; flex: none; }
        .screen { border-radius: 26px; min-height: 400px; overflow: hidden; position: relative; background: #fff;
          display: flex; flex-direction: column; }
        .screen.wall { background: linear-gradient(160deg, #3a6ea5, #8a5fa8 60%, #c56b8b); color: #fff; }
        .statusbar { display: flex; justify-content: space-between; padding: 6px 18px 2px; font-size: 11px;
          font-weight: 600; } .lock-time { text-align: center; font-size: 52px; font-weight: 300; line-height: 1;
          margin-top: 14px; } .lock-date { text-align: center; font-size: 13px; margin-bottom: 12px; }
        .phone-caption { color: #c7c7cc; text-align: center; font-size: 11px; margin-top: 6px; }
        .notif { background: rgba(245,245,247,.92); color: #1d1d1f; border-radius: 14px; padding: 8px 10px;
          margin: 6px 8px; box-shadow: 0 1px 3px rgba(0,0,0,.15); font-size: 12px; position: relative; }
        .notif.banner { margin-top: 8px; } .notif.quiet { opacity: .75; }
        .notif .head { display: flex; align-items: center; gap: 6px; color: #6e6e73; font-size: 10px;
          text-transform: uppercase; letter-spacing: .02em; }
        .notif .icon { width: 18px; height: 18px; border-radius: 5px; background: var(--accent); color: #fff;
          font-size: 11px; display: flex; align-items: center; justify-content: center; position: relative; flex: none; }
        .notif .icon .count { position: absolute; top: -6px; right: -8px; background: #ff3b30; color: #fff;
          border-radius: 9px; font-size: 9px; padding: 0 4px; min-width: 14px; text-align: center; }
        .notif .app { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .notif .t { font-weight: 600; margin-top: 3px; overflow-wrap: anywhere; }
        .notif .st { font-weight: 500; overflow-wrap: anywhere; } .notif .b { overflow-wrap: anywhere; }
        .notif.stacked::after { content: ""; position: absolute; left: 8px; right: 8px; bottom: -5px; height: 6px;
          background: rgba(235,235,240,.85); border-radius: 0 0 12px 12px; z-index: -1; }
        .notif .more { color: #6e6e73; font-size: 10px; margin-top: 2px; }
        .notif.clickable { cursor: pointer; } .notif.clickable:hover { outline: 2px solid var(--accent); }
        .nc-title { font-size: 20px; font-weight: 700; padding: 6px 14px 2px; }
        .expanded { background: #fff; color: #1d1d1f; margin: 8px; border-radius: 14px; overflow: hidden;
          box-shadow: 0 1px 4px rgba(0,0,0,.2); font-size: 12px; }
        .expanded .ext { background: #f2f2f7; padding: 12px; min-height: 80px; border-bottom: 1px solid #d1d1d6; }
        .expanded .ext div { overflow-wrap: anywhere; }
        .expanded .body { padding: 8px 10px; } .expanded .action { padding: 9px 10px; border-top: 1px solid #e5e5ea;
          color: var(--accent); text-align: left; display: block; width: 100%; background: none; border-left: 0;
          border-right: 0; border-bottom: 0; font: inherit; }
        .navbar { padding: 8px 10px 6px; border-bottom: 1px solid #e5e5ea; background: #f9f9fb; display: flex;
          align-items: center; gap: 6px; min-height: 36px; } .navbar .back { color: var(--accent); font-size: 12px; }
        .navbar .title { font-weight: 600; flex: 1; text-align: center; overflow-wrap: anywhere; }
        .content { flex: 1; padding: 10px; color: #3a3a3c; font-size: 12px; overflow-wrap: anywhere; }
        .tabbar { display: flex; border-top: 1px solid #d1d1d6; background: #f9f9fb; }
        .tabbar div { flex: 1; text-align: center; font-size: 10px; padding: 6px 2px 10px; color: #8e8e93; }
        .tabbar div.on { color: var(--accent); font-weight: 600; }
        .alert-veil { position: absolute; inset: 0; background: rgba(0,0,0,.35); display: flex; align-items: center;
          justify-content: center; } .alert { width: 78%; background: rgba(250,250,252,.97); border-radius: 13px;
          text-align: center; overflow: hidden; font-size: 12px; } .alert .at { font-weight: 600; padding: 12px 10px 2px; }
        .alert .am { padding: 0 10px 10px; } .alert .ab { display: flex; border-top: 1px solid #d1d1d6; }
        .alert .ab div { flex: 1; padding: 8px 4px; color: var(--accent); border-left: 1px solid #d1d1d6; }
        .alert .ab div:first-child { border-left: 0; } .alert .ab div:last-child { font-weight: 600; }
        .screens { display: flex; gap: 10px; overflow-x: auto; padding-bottom: 4px; align-items: flex-start; }
        .screens .phone { width: 200px; min-height: 330px; } .screens .screen { min-height: 310px; }
        .arrow-right { align-self: center; color: var(--muted); font-size: 20px; }
        .browser { border: 1px solid var(--line); border-radius: 8px; overflow: hidden; max-width: 720px;
          background: #fff; } .browser .bar { display: flex; gap: 8px; padding: 6px 8px; background: #f2f2f7;
          border-bottom: 1px solid var(--line); align-items: center; font-size: 12px; }
        .browser .url { flex: 1; font-family: var(--mono); background: #fff; border-radius: 5px; padding: 2px 6px;
          overflow-wrap: anywhere; } .browser iframe { width: 100%; height: 300px; border: 0; display: block; }
        .browser .redirects { font-size: 12px; padding: 4px 8px; border-bottom: 1px solid #ececf0; color: var(--muted); }
        /* console */
        .console { display: grid; grid-template-columns: 1.2fr 1fr; gap: 14px; align-items: start; }
        .panel { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px;
          margin-bottom: 14px; } .panel h2 { font-size: 15px; margin: 0 0 8px; }
        table.log { border-collapse: collapse; width: 100%; font-size: 12px; }
        table.log th { text-align: left; color: var(--muted); font-weight: 500; border-bottom: 1px solid var(--line);
          padding: 3px 5px; } table.log td { border-bottom: 1px solid #ececf0; padding: 3px 5px; cursor: pointer;
          overflow-wrap: anywhere; } table.log tr:hover td { background: #f0f4fa; }
        table.log tr.selected td { background: #e3edf9; } table.log tr.fresh td { animation: fresh 1.5s; }
        @keyframes fresh { from { background: #fff3bf; } to { background: transparent; } }
        .form { display: grid; grid-template-columns: 120px 1fr; gap: 6px 10px; align-items: center; }
        .form label { color: var(--muted); font-size: 12px; } .form textarea { font-family: var(--mono);
          font-size: 12px; min-height: 150px; width: 100%; } .form .wide { grid-column: 1 / -1; }
        .hint { font-size: 12px; color: var(--muted); } .hint.bad { color: var(--fail); } .hint.ok { color: var(--pass); }
        button.act { font: inherit; font-size: 12px; border: 1px solid var(--line); background: #fff; border-radius: 6px;
          padding: 3px 9px; cursor: pointer; margin: 2px; } button.act:hover { border-color: var(--accent); }
        button.primary { background: var(--accent); color: #fff; border-color: var(--accent); padding: 5px 16px; }
        .answer { margin-top: 10px; padding: 8px 10px; border-radius: 6px; border: 1px solid var(--line); }
        .answer.ok { border-color: var(--pass); background: #f1fbf3; } .answer.bad { border-color: var(--fail);
          background: #fff5f5; }
        .device { border-top: 1px solid #ececf0; padding-top: 10px; margin-top: 10px; }
        .device:first-of-type { border-top: 0; margin-top: 0; }
        .facts-line { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
        .bidi { font-family: var(--mono); font-size: 0.85em; color: var(--fail); background: #fff0f0;
          border: 1px solid #f5c2c7; border-radius: 3px; padding: 0 2px; unicode-bidi: isolate; }
        .device-note { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
        """#
}
