// What the page check reads from a drawn page: the viewport and the
// document's scroll size, every piece of text a person sees (its size in
// CSS pixels as rendered, an SVG's scale included, and the role of the
// nearest [data-role] around it), and every box that clips or scrolls
// its content. pagecheck.go judges it.
(function () {
  "use strict";
  function where(e) {
    var p = [];
    while (e && e.nodeType === 1 && p.length < 4) {
      var s = e.tagName.toLowerCase();
      if (e.dataset && e.dataset.testid) s += "[data-testid=" + e.dataset.testid + "]";
      else if (typeof e.className === "string" && e.className.trim()) s += "." + e.className.trim().split(/\s+/).join(".");
      p.unshift(s);
      e = e.parentElement;
    }
    return p.join(" > ");
  }
  function role(e) { var r = e.closest("[data-role]"); return r ? r.dataset.role : ""; }
  function size(e) {
    var px = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement && e.ownerSVGElement) {
      var m = e.getScreenCTM();
      if (m) px *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    return px;
  }
  function shown(e) {
    for (var x = e; x && x.nodeType === 1; x = x.parentElement) {
      var cs = getComputedStyle(x);
      if (cs.visibility === "hidden" || cs.display === "none" || +cs.opacity === 0) return false;
    }
    return true;
  }
  var out = { w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
              lang: document.documentElement.lang, texts: [], clipped: [] };
  var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n;
  while ((n = walk.nextNode())) {
    var s = n.nodeValue.replace(/\s+/g, " ").trim();
    var e = n.parentElement;
    if (!s || !e || e.closest("script,style,title,desc,noscript")) continue;
    var r = document.createRange();
    r.selectNodeContents(n);
    var seen = Array.prototype.some.call(r.getClientRects(), function (b) { return b.width > 0 && b.height > 0; });
    if (!seen || !shown(e)) continue;
    out.texts.push({ text: s, px: size(e), role: role(e), where: where(e) });
  }
  document.querySelectorAll("input[placeholder], textarea[placeholder]").forEach(function (e) {
    if (!e.getClientRects().length || !shown(e) || e.value) return;
    out.texts.push({ text: e.placeholder, px: size(e), role: role(e), where: where(e) });
  });
  document.querySelectorAll("body *").forEach(function (e) {
    var cs = getComputedStyle(e);
    if (cs.overflowX === "visible" && cs.overflowY === "visible") return;
    if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1) {
      out.clipped.push({ where: where(e), role: role(e), sw: e.scrollWidth, sh: e.scrollHeight, cw: e.clientWidth, ch: e.clientHeight });
    }
  });
  return out;
})()
