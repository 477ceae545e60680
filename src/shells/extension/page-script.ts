// The one script Deltascope evaluates in the inspected page (devtools.inspectedWindow.eval, no
// permission): a fixed string, called with JSON-encoded arguments (pageCall), never page data
// turned into code. It returns only text, numbers and rectangles. The page's code is
// untrusted: what comes back is checked by its reader (devtools-shell.ts), and the page's
// text is compared, never rendered as HTML.
//
// Operations:
//   probe / read  the element showing the reply: the last match of a selector (or its match
//                 `index`), else the element whose text best matches the reply's words: of the
//                 elements holding at least half of them, those that are neither a wrapper of
//                 one holding about as much nor a part of another such element (one per reply
//                 shown), the last in the document (the newest reply). probe
//                 returns its length and a digest (to wait for it to settle), read its
//                 innerText, cut at 10 MB with `cut` set, and the text of the <details>
//                 blocks and buttons inside it (what the page marks as not the reply).
//   pick-start    outlines the element under the mouse (an overlay that takes no events); a
//                 click chooses it, Escape cancels; both remove the overlay and every listener.
//                 Cancelled by itself after two minutes.
//   pick-poll     what the picker chose (then forgets it); pick-cancel removes it.
//   origin        location.origin.
// The picker keeps its state on one non-enumerable window property between calls, deleted
// once read or cancelled: nothing else is left in the page.

export type PageOp = 'probe' | 'read' | 'pick-start' | 'pick-poll' | 'pick-cancel' | 'origin'

/** The most of the page's text returned (UTF-16 units): 10 MB of ASCII. */
export const PAGE_TEXT_LIMIT = 10 * 1024 * 1024

/** The expression for one call: the fixed script applied to JSON-encoded arguments. */
export function pageCall(op: PageOp, args: unknown = {}): string {
  return `(${PAGE_SCRIPT})(${JSON.stringify(op)}, ${JSON.stringify(args)})`
}

// Plain ES2017 for both browsers' page contexts; no backtick or template in it.
export const PAGE_SCRIPT = String.raw`function (op, args) {
  var KEY = '__deltascopePicker';
  var LIMIT = ${PAGE_TEXT_LIMIT};
  var MAX_WORDS = 5000;
  function norm(s) { return String(s).replace(/[\s\u00a0\u2028\u2029]+/g, ' ').trim(); }
  function words(s) { var n = norm(s); return n === '' ? [] : n.split(' '); }
  function rectOf(el) { var r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }
  function digest(s) { var h = 0; for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; return s.length + ':' + h; }
  function esc(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/[^\w-]/g, '\\$&'); }
  function part(el) {
    var s = el.localName;
    var classes = Array.prototype.slice.call(el.classList, 0, 3).filter(function (c) { return /^[A-Za-z_-][\w-]*$/.test(c); });
    for (var i = 0; i < classes.length; i++) s += '.' + esc(classes[i]);
    return s;
  }
  function selectorOf(el) {
    var parts = [];
    for (var node = el; node && node !== document.body && node !== document.documentElement && parts.length < 4; node = node.parentElement) {
      if (node.id && /^[A-Za-z][\w-]*$/.test(node.id) && document.querySelectorAll('#' + esc(node.id)).length === 1) { parts.unshift('#' + esc(node.id)); break; }
      parts.unshift(part(node));
    }
    return parts.join(' > ');
  }
  function indexIn(sel, el) { var list = document.querySelectorAll(sel); return Array.prototype.indexOf.call(list, el); }
  function bestMatch(expected) {
    var want = new Map();
    var total = 0;
    var ws = words(expected).slice(0, MAX_WORDS);
    for (var i = 0; i < ws.length; i++) { want.set(ws[i], (want.get(ws[i]) || 0) + 1); total++; }
    if (total === 0) return null;
    // the reply's words each element holds, from its text nodes (textContent would run the words
    // of two blocks together: "item" + "second" is no word of the reply)
    var counts = new Map();
    var skip = { script: 1, style: 1, noscript: 1, template: 1 };
    var walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
    var seen = 0;
    for (var node = walker.nextNode(); node && seen < LIMIT; node = walker.nextNode()) {
      var parent = node.parentElement;
      if (!parent || skip[parent.localName]) continue;
      var data = node.data;
      seen += data.length;
      var tokens = words(data);
      for (var t = 0; t < tokens.length; t++) {
        if (!want.has(tokens[t])) continue;
        for (var up = parent, depth = 0; up && depth < 64; up = up.parentElement, depth++) {
          var m = counts.get(up);
          if (!m) { m = new Map(); counts.set(up, m); }
          m.set(tokens[t], (m.get(tokens[t]) || 0) + 1);
        }
      }
    }
    var scored = [];
    counts.forEach(function (m, el) {
      var matched = 0;
      m.forEach(function (n, w) { matched += Math.min(n, want.get(w)); });
      var recall = matched / total;
      // an element holding at least half the reply's words may show it
      if (recall >= 0.5) scored.push({ el: el, recall: recall });
    });
    // document order (the Map is in the order elements were first met, not their order)
    scored.sort(function (a, b) { return a.el === b.el ? 0 : a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1; });
    // a wrapper (an element with a descendant holding about as much) is not the reply's element…
    var kept = scored.filter(function (s) {
      return !scored.some(function (d) { return d !== s && s.el.contains(d.el) && d.recall >= s.recall - 0.05; });
    });
    // …nor a part of one (a long paragraph inside it); of the replies left, the newest is the last in the document
    var replies = kept.filter(function (s) {
      return !kept.some(function (a) { return a !== s && a.el.contains(s.el); });
    });
    return replies.length > 0 ? replies[replies.length - 1].el : null;
  }
  function find(a) {
    if (typeof a.selector === 'string' && a.selector !== '') {
      var list;
      try { list = document.querySelectorAll(a.selector); } catch (e) { return { error: 'The selector ' + JSON.stringify(a.selector) + ' is not valid CSS.' }; }
      if (list.length === 0) return { count: 0, el: null, selector: a.selector, index: -1 };
      var index = typeof a.index === 'number' && a.index >= 0 && a.index < list.length ? a.index : list.length - 1;
      return { count: list.length, el: list[index], selector: a.selector, index: index };
    }
    var el = bestMatch(String(a.expected || ''));
    if (!el) return { count: 0, el: null, selector: null, index: -1 };
    var sel = selectorOf(el);
    return { count: document.querySelectorAll(sel).length, el: el, selector: sel, index: indexIn(sel, el) };
  }
  function finish(state) {
    var p = window[KEY];
    if (!p || p.state !== 'picking') return;
    p.state = state.state; p.selector = state.selector || null; p.index = typeof state.index === 'number' ? state.index : -1;
    p.cleanup();
  }
  if (op === 'origin') return location.origin;
  if (op === 'probe' || op === 'read') {
    var f = find(args || {});
    if (f.error) return { error: f.error };
    if (!f.el) return { found: false, selector: f.selector, count: f.count, index: -1, length: 0, digest: '', rect: null };
    var text = f.el.innerText;
    if (typeof text !== 'string') text = f.el.textContent || '';
    var out = { found: true, selector: f.selector, count: f.count, index: f.index, length: text.length, digest: digest(text), rect: rectOf(f.el) };
    if (op === 'read') {
      out.cut = text.length > LIMIT;
      out.text = out.cut ? text.slice(0, LIMIT) : text;
      // what the page marks as not the reply: <details> blocks (reasoning, tool calls) and buttons, outermost only
      var marked = f.el.querySelectorAll('details, button, [role=button]');
      var parts = [];
      for (var q = 0; q < marked.length && parts.length < 200; q++) {
        var mk = marked[q];
        var outer = mk.parentElement && mk.parentElement.closest('details, button, [role=button]');
        if (outer && f.el.contains(outer)) continue;
        var pt = mk.innerText;
        if (typeof pt === 'string' && pt.trim() !== '') parts.push({ kind: mk.localName === 'details' ? 'details' : 'button', text: pt.slice(0, 100000) });
      }
      out.parts = parts;
    }
    return out;
  }
  if (op === 'pick-start') {
    if (window[KEY] && window[KEY].state === 'picking') return { ok: true };
    var box = document.createElement('div');
    box.style.cssText = 'position:fixed;pointer-events:none;z-index:2147483647;outline:2px solid #1a73e8;background:rgba(26,115,232,.18);display:none;box-sizing:border-box';
    var over = null;
    var block = function (e) { e.preventDefault(); e.stopImmediatePropagation(); };
    var move = function (e) {
      var el = document.elementFromPoint(e.clientX, e.clientY);
      if (!el || el === box) return;
      over = el;
      var r = el.getBoundingClientRect();
      box.style.display = 'block'; box.style.left = r.left + 'px'; box.style.top = r.top + 'px'; box.style.width = r.width + 'px'; box.style.height = r.height + 'px';
    };
    var click = function (e) {
      block(e);
      var el = document.elementFromPoint(e.clientX, e.clientY) || over;
      if (!el) return;
      var sel = selectorOf(el);
      finish({ state: 'picked', selector: sel, index: indexIn(sel, el) });
    };
    var key = function (e) { if (e.key === 'Escape') { block(e); finish({ state: 'cancelled' }); } };
    var timer = setTimeout(function () { finish({ state: 'cancelled' }); }, 120000);
    var types = ['pointerdown', 'pointerup', 'mousedown', 'mouseup'];
    var cleanup = function () {
      clearTimeout(timer);
      window.removeEventListener('mousemove', move, true);
      window.removeEventListener('click', click, true);
      window.removeEventListener('keydown', key, true);
      for (var i = 0; i < types.length; i++) window.removeEventListener(types[i], block, true);
      box.remove();
    };
    Object.defineProperty(window, KEY, { value: { state: 'picking', cleanup: cleanup }, configurable: true, enumerable: false, writable: true });
    window.addEventListener('mousemove', move, true);
    window.addEventListener('click', click, true);
    window.addEventListener('keydown', key, true);
    for (var t = 0; t < types.length; t++) window.addEventListener(types[t], block, true);
    (document.body || document.documentElement).appendChild(box);
    return { ok: true };
  }
  if (op === 'pick-poll' || op === 'pick-cancel') {
    var p = window[KEY];
    if (!p) return { state: 'none' };
    if (op === 'pick-cancel') finish({ state: 'cancelled' });
    if (p.state === 'picking') return { state: 'picking' };
    delete window[KEY];
    return { state: p.state, selector: p.selector, index: p.index };
  }
  return { error: 'unknown operation' };
}`
