/* Resilience Harness report: the filters, and each scenario's timeline, drawn when it is first opened.
   Timeline data (#timelines, one entry per scenario in page order):
     ops      [op name]                                    one lane each
     calls    [[lane, repair, fault, result, at_ms, first_token_ms or null]]
     waits    [[start_ms, ms, index of the call it follows, or -1]]
     restarts [index of the call during which the process died]
     outcomes [[lane, status, reason, attempts]]
     streams  [[call index, end, [event at_ms], cut/stall at_ms or null, summary]]   (only when a call streamed)
     tools    [[lane, name, fault, result, at_ms, end_ms, index of the call it follows or -1, committed, summary]]
              (only when a tool ran; drawn as squares, calls as circles)
     mcp      [[lane, "server: method", fault, outcome, at_ms, end_ms, index of the call it follows or -1, summary]]
              (only when an MCP client sent a request other than tools/call, whose tool is in tools; drawn as pills)
   #all or ?expand=all in the URL opens and draws every scenario. */
(function () {
  'use strict';
  var COLORS = /*COLORS*/{};
  var TOOL_COLORS = /*TOOL_COLORS*/{};
  var RESULT = {ok: 'answered', transient: 'transient failure', quota: 'quota rejection',
    schema: 'schema-invalid tool call', crash: 'process died'};
  var STATUS = {ok: '#188038', degraded: '#f29900', stopped: '#c5221f'};
  var SLOT = 26, LANE = 28, TOP = 40;
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; });
  }
  function trim(v, d) { return String(+v.toFixed(d)); }
  function dur(ms) {
    if (ms < 1000) { return trim(ms, 3) + ' ms'; }
    if (ms < 600000) { return trim(ms / 1000, 3) + ' s'; }
    return trim(ms / 60000, 2) + ' min';
  }
  function short(s, n) { return s.length > n ? s.slice(0, n - 1) + '\u2026' : s; }
  function timeline(t) {
    var lanes = t.ops.length;
    if (!lanes) { return '<p class="muted">No calls were made.</p>'; }
    var longest = 0;
    t.ops.forEach(function (o) { longest = Math.max(longest, Math.min(o.length, 24)); });
    var LEFT = Math.max(60, Math.min(190, 18 + longest * 7));
    var bottom = TOP + lanes * LANE;
    var after = {}, restarts = {};
    t.waits.forEach(function (w) { (after[w[2]] = after[w[2]] || []).push({at: w[0], wait: w}); });
    (t.tools || []).forEach(function (tl) { (after[tl[6]] = after[tl[6]] || []).push({at: tl[4], tool: tl}); });
    (t.mcp || []).forEach(function (m) { (after[m[6]] = after[m[6]] || []).push({at: m[4], tool: m, mcp: true}); });
    /* Waits and tool executions after one call, by start; a tool and a wait starting together: the tool first,
       as a loop waits after the tool failed. The sort is stable, so each kind keeps its own order. */
    Object.keys(after).forEach(function (k) {
      after[k].sort(function (a, b) { return a.at - b.at || (a.tool ? 0 : 1) - (b.tool ? 0 : 1); });
    });
    t.restarts.forEach(function (r) { restarts[r] = true; });
    var streamOf = {};
    (t.streams || []).forEach(function (st) { streamOf[st[0]] = st; });
    var x = LEFT + 10, bands = [], marks = [], lines = [], ticks = [], lastTick = -1e9;
    function tick(time, force) {
      if (!force && x - lastTick < 56) { return; }
      lastTick = x;
      ticks.push('<line x1="' + x + '" y1="' + bottom + '" x2="' + x + '" y2="' + (bottom + 5) +
        '" stroke="#9aa0a6"/><text x="' + x + '" y="' + (bottom + 17) + '" text-anchor="middle" fill="#5f6368">' +
        (time === 0 ? 't=0' : esc(dur(time))) + '</text>');
    }
    /* A tool execution: a square in its op's lane, coloured by the tool fault it met, crossed when its caller saw
       a failure, ringed when it took effect all the same (committed). */
    function tool(tl) {
      var y = TOP + tl[0] * LANE + LANE / 2, col = TOOL_COLORS[tl[2]] || TOOL_COLORS._other;
      x += SLOT / 2;
      var cross = tl[3] === 'ok' ? '' : '<path d="M' + (x - 3.5) + ' ' + (y - 3.5) + 'l7 7m0-7l-7 7" stroke="#fff"' +
        ' stroke-width="2"/>';
      var ring = tl[7] && tl[3] !== 'ok' ? '<rect x="' + (x - 10) + '" y="' + (y - 10) + '" width="20" height="20"' +
        ' rx="3" fill="none" stroke="#202124" stroke-width="1.5"/>' : '';
      marks.push('<g class="tool-mark" data-tool="' + esc(tl[1]) + '" data-fault="' + esc(tl[2]) +
        '" data-result="' + esc(tl[3]) + '" data-committed="' + tl[7] + '"><rect x="' + (x - 7) + '" y="' +
        (y - 7) + '" width="14" height="14" rx="2" fill="' + col + '"/>' + cross + ring + '<text x="' + x +
        '" y="' + (y + 20) + '" text-anchor="middle" fill="#202124" font-size="9">' + esc(short(tl[1], 10)) +
        '</text><title>' + esc(tl[8]) + '</title></g>');
      x += SLOT / 2;
      if (tl[5] > tl[4]) { tick(tl[5], false); }
    }
    /* An MCP request other than tools/call: a pill in its op's lane, coloured by the MCP fault it met, crossed
       when the client saw no result, labelled with the server and the method. */
    function mcp(m) {
      var y = TOP + m[0] * LANE + LANE / 2, col = TOOL_COLORS[m[2]] || TOOL_COLORS._other;
      x += SLOT / 2;
      var cross = m[3] === 'result' ? '' : '<path d="M' + (x - 3) + ' ' + (y - 3) + 'l6 6m0-6l-6 6" stroke="#fff"' +
        ' stroke-width="1.8"/>';
      marks.push('<g class="mcp-mark" data-label="' + esc(m[1]) + '" data-fault="' + esc(m[2]) +
        '" data-outcome="' + esc(m[3]) + '"><rect x="' + (x - 9) + '" y="' + (y - 5) + '" width="18" height="10"' +
        ' rx="5" fill="' + col + '"/>' + cross + '<text x="' + x + '" y="' + (y + 18) +
        '" text-anchor="middle" fill="#202124" font-size="9">' + esc(short(m[1], 14)) + '</text><title>' +
        esc(m[7]) + '</title></g>');
      x += SLOT / 2;
      if (m[5] > m[4]) { tick(m[5], false); }
    }
    function waits(k) {
      (after[k] || []).forEach(function (item) {
        if (item.mcp) { mcp(item.tool); return; }
        if (item.tool) { tool(item.tool); return; }
        var w = item.wait;
        var width = Math.round(Math.max(40, Math.min(150, 26 + 22 * Math.log(1 + w[1]) / Math.LN10)));
        bands.push('<g class="wait" data-ms="' + w[1] + '"><rect x="' + (x + 2) + '" y="' + (TOP - 2) +
          '" width="' + (width - 4) + '" height="' + (lanes * LANE + 4) +
          '" rx="3" fill="#e8eaed" stroke="#9aa0a6" stroke-dasharray="3 2"/><text x="' + (x + width / 2) +
          '" y="' + (TOP - 8) + '" text-anchor="middle" fill="#3c4043" font-weight="600">' + esc(dur(w[1])) +
          '</text><title>wait ' + esc(dur(w[1])) + ' from t=' + esc(dur(w[0])) +
          (w[3] ? ' by ' + esc(w[3]) + "'s retry layer" : '') + '</title></g>');
        x += width;
        tick(w[0] + w[1], false);
      });
    }
    /* A streamed answer: one tick per event, spaced by arrival time, and a red bar where it was cut or stalled. */
    function stream(st, y) {
      var ev = st[2], from = ev.length ? ev[0] : (st[3] || 0), to = st[3] !== null ? st[3] : (ev.length ? ev[ev.length - 1] : from);
      var broken = st[3] !== null, span = Math.max(1, to - from);
      var width = Math.round(Math.max(24, Math.min(150, 14 + 5 * ev.length))) + (broken ? 8 : 0);
      var inner = width - (broken ? 12 : 4), parts = [];
      ev.forEach(function (at, k) {
        var ex = x + 2 + (ev.length === 1 && !broken ? 0 : Math.round((at - from) * inner / span));
        parts.push('<line x1="' + ex + '" y1="' + (y - 5) + '" x2="' + ex + '" y2="' + (y + 5) +
          '" stroke="' + (k === 0 ? '#1a73e8' : '#5f6368') + '" stroke-width="' + (k === 0 ? 2 : 1) + '"/>');
      });
      if (broken) {
        var bx = x + width - 6;
        parts.push('<line x1="' + bx + '" y1="' + (y - 9) + '" x2="' + bx + '" y2="' + (y + 9) +
          '" stroke="#c5221f" stroke-width="3"/><text x="' + bx + '" y="' + (y - 11) +
          '" text-anchor="middle" fill="#c5221f" font-size="9">' + esc(st[1] === 'stalled' ? 'stall' :
          st[1] === 'cut' ? 'cut' : 'error') + '</text>');
      }
      marks.push('<g class="stream" data-end="' + esc(st[1]) + '"><line x1="' + x + '" y1="' + y + '" x2="' +
        (x + width - 4) + '" y2="' + y + '" stroke="#dadce0"/>' + parts.join('') + '<title>' + esc(st[4]) +
        '</title></g>');
      x += width;
    }
    tick(0, true);
    waits(-1);
    t.calls.forEach(function (c, i) {
      var op = t.ops[c[0]], y = TOP + c[0] * LANE + LANE / 2, col = COLORS[c[2]] || COLORS._other;
      x += SLOT / 2;
      var shape = c[1] > 0
        ? '<rect x="' + (x - 6) + '" y="' + (y - 6) + '" width="12" height="12" transform="rotate(45 ' + x +
          ' ' + y + ')" fill="' + col + '"/>'
        : '<circle cx="' + x + '" cy="' + y + '" r="7.5" fill="' + col + '"/>';
      var cross = c[3] === 'ok' ? '' : '<path d="M' + (x - 3.5) + ' ' + (y - 3.5) + 'l7 7m0-7l-7 7" stroke="#fff"' +
        ' stroke-width="2"/>';
      var sdkRetry = c.length > 7 && c[7] > 0;
      var tip = 'call ' + (i + 1) + ': ' + op + (c[1] > 0 ? ' (repair ' + c[1] + ')' : '') + ' at t=' +
        dur(c[4]) + ' \u2014 fault ' + c[2] + ', ' + (RESULT[c[3]] || c[3]) +
        (c[5] !== null ? ', first token after ' + dur(c[5]) : '') +
        (sdkRetry ? ' \u2014 retry ' + c[7] + ' of ' + c[6] + "'s own retry layer" : c.length > 6 ? ' (sent by ' +
          c[6] + ')' : '');
      var ring = sdkRetry ? '<circle cx="' + x + '" cy="' + y + '" r="10.5" fill="none" stroke="#202124"' +
        ' stroke-width="1.5" stroke-dasharray="2 2"/><text x="' + x + '" y="' + (y + 22) + '" text-anchor="middle"' +
        ' fill="#202124" font-size="9">SDK</text>' : '';
      marks.push('<g class="call-mark' + (sdkRetry ? ' sdk-retry' : '') + '" data-fault="' + esc(c[2]) +
        '" data-result="' + esc(c[3]) + '" data-op="' + esc(op) + '">' + shape + cross + ring + '<title>' +
        esc(tip) + '</title></g>');
      x += SLOT / 2;
      if (streamOf[i]) { stream(streamOf[i], y); }
      if (restarts[i]) {
        x += 6;
        lines.push('<g class="restart"><line x1="' + x + '" y1="' + (TOP - 4) + '" x2="' + x + '" y2="' + bottom +
          '" stroke="#c5221f" stroke-width="2" stroke-dasharray="4 3"/><text x="' + x + '" y="' + (TOP - 20) +
          '" text-anchor="middle" fill="#c5221f" font-weight="700">restart</text>' +
          '<title>the process was recycled during call ' + (i + 1) + ' and resumed from its journal</title></g>');
        x += 8;
      }
      waits(i);
    });
    var end = x + 12, badge = 0, height = bottom + 24, rows = [], ends = [];
    for (var l = 0; l < lanes; l++) {
      var y0 = TOP + l * LANE;
      rows.push('<rect x="0" y="' + y0 + '" width="' + end + '" height="' + LANE + '" fill="' +
        (l % 2 ? '#ffffff' : '#f8f9fa') + '"/><text x="' + (LEFT - 6) + '" y="' + (y0 + LANE / 2 + 4) +
        '" text-anchor="end" fill="#202124">' + esc(short(t.ops[l], 24)) + '<title>' + esc(t.ops[l]) +
        '</title></text>');
    }
    var outcomeOf = {};
    t.outcomes.forEach(function (o) { outcomeOf[o[0]] = o; });
    for (var k = 0; k < lanes; k++) {
      var o = outcomeOf[k], yy = TOP + k * LANE + 5;
      var label = o ? o[1] + (o[2] ? ': ' + o[2] : '') + ' \u00b7 ' + o[3] + (o[3] === 1 ? ' attempt' : ' attempts')
        : 'no outcome';
      var fill = o ? (STATUS[o[1]] || '#5f6368') : '#9aa0a6', bw = Math.round(label.length * 7 + 16);
      badge = Math.max(badge, bw);
      ends.push('<g class="outcome" data-status="' + esc(o ? o[1] : 'none') + '"><rect x="' + (end + 8) + '" y="' +
        yy + '" width="' + bw + '" height="' + (LANE - 10) + '" rx="3" fill="' + fill +
        '"/><text x="' + (end + 15) + '" y="' + (yy + 13) + '" fill="#fff" font-weight="600">' + esc(label) +
        '</text></g>');
    }
    var width = end + 16 + badge;
    return '<svg class="timeline" width="' + width + '" height="' + height + '" viewBox="0 0 ' + width + ' ' +
      height + '" role="img" aria-label="timeline of ' + t.calls.length + ' calls' +
      (t.tools ? ' and ' + t.tools.length + ' tool executions' : '') +
      (t.mcp ? ' and ' + t.mcp.length + ' other MCP requests' : '') + '">' +
      '<text x="' + (LEFT - 6) + '" y="' + (TOP - 8) + '" text-anchor="end" fill="#5f6368">op</text>' +
      rows.join('') + bands.join('') + '<line x1="' + LEFT + '" y1="' + bottom + '" x2="' + end + '" y2="' +
      bottom + '" stroke="#9aa0a6"/>' + ticks.join('') + lines.join('') + marks.join('') + ends.join('') +
      '</svg>';
  }
  var timelines = null;
  function draw(d) {
    var box = d.querySelector('.tl');
    if (!box || box.getAttribute('data-drawn')) { return; }
    box.setAttribute('data-drawn', '1');
    if (!timelines) { timelines = JSON.parse(document.getElementById('timelines').textContent); }
    box.insertAdjacentHTML('beforeend', timeline(timelines[+box.getAttribute('data-i')]));
  }
  var list = Array.prototype.slice.call(document.querySelectorAll('details.scn'));
  var q = document.getElementById('q'), shown = document.getElementById('shown'), filter = 'all';
  var buttons = Array.prototype.slice.call(document.querySelectorAll('[data-filter]'));
  function apply() {
    var text = q.value.toLowerCase(), n = 0;
    list.forEach(function (d) {
      var ok = (!text || d.getAttribute('data-name').toLowerCase().indexOf(text) >= 0) &&
        (filter === 'all' || (filter === 'failing' ? d.classList.contains('fail')
          : (' ' + d.getAttribute('data-inv') + ' ').indexOf(' ' + filter + ' ') >= 0));
      d.hidden = !ok;
      if (ok) { n++; }
    });
    shown.textContent = n + ' of ' + list.length + ' shown';
  }
  q.addEventListener('input', apply);
  buttons.forEach(function (b) {
    b.addEventListener('click', function () {
      filter = b.getAttribute('data-filter');
      buttons.forEach(function (o) { o.classList.toggle('on', o.getAttribute('data-filter') === filter); });
      apply();
      if (b.classList.contains('link')) { document.getElementById('scenarios').scrollIntoView(); }
    });
  });
  document.getElementById('expand').addEventListener('click', function () {
    list.forEach(function (d) { if (!d.hidden) { d.open = true; draw(d); } });
  });
  document.getElementById('collapse').addEventListener('click', function () {
    list.forEach(function (d) { d.open = false; });
  });
  document.addEventListener('toggle', function (e) {
    if (e.target.classList && e.target.classList.contains('scn') && e.target.open) { draw(e.target); }
  }, true);
  function reveal() {
    var h = location.hash.slice(1);
    if (h === 'all' || /(^|[?&])expand=all(&|$)/.test(location.search.slice(1))) {
      list.forEach(function (d) { d.open = true; draw(d); });
      return;
    }
    var el = h && document.getElementById(h);
    if (el && el.tagName === 'DETAILS') { el.open = true; draw(el); el.scrollIntoView(); }
  }
  window.addEventListener('hashchange', reveal);
  list.forEach(function (d) { if (d.open) { draw(d); } });
  reveal();
})();
