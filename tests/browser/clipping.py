"""What Flutter really draws, read from its text engine: which texts are cut short.

Flutter paints text on a canvas, and its accessibility tree gives one box per control, often
several texts merged into one label; neither shows an ellipsis or a word broken in two. The
text engine knows: with the CanvasKit renderer (the app started with
``FLET_WEB_RENDERER=canvaskit``; the other renderer, skwasm, lays text out with the same Skia
code but out of reach of JavaScript) every paragraph Flutter lays out is a CanvasKit object.
``WATCH_TEXT``, run before the page's own scripts, wraps three of CanvasKit's functions: a
paragraph remembers its text, and each time it is drawn it records its lines and whether it hit
its line limit (so ended in an ellipsis or lost lines). (Its position cannot tell a clip:
pictures are recorded in their layer's own coordinates.) Text running off the screen is
found in the accessibility tree instead, whose boxes are in the page's coordinates, and so is
a button's text taller than its button (a button of fixed height cuts off the lines below it:
the paragraph's own height against the box of the button it labels).
``clipped_texts`` then names every text on the screen that does not show in full.
"""

from __future__ import annotations

from tests.browser.phone import PHONE, Phone

WATCH_TEXT = """(() => {
  const seen = { drawn: new Map(), quietFrames: 0 };
  window.__texts = seen;
  const frame = () => { seen.quietFrames += 1; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  const watch = (ck) => {
    const builder = ck.ParagraphBuilder.prototype, paragraph = ck.Paragraph.prototype, canvas = ck.Canvas.prototype;
    const { addText, build } = builder, { drawParagraph } = canvas, remove = paragraph.delete;
    builder.addText = function (text) { this.__text = (this.__text || '') + text; return addText.call(this, text); };
    builder.build = function () { const built = build.call(this); built.__text = this.__text || ''; return built; };
    paragraph.delete = function () { seen.drawn.delete(this); return remove.call(this); };
    canvas.drawParagraph = function (p, x, y) {
      const lines = p.getLineMetrics().map(l => ({ start: l.startIndex }));
      seen.drawn.set(p, { text: p.__text, lines, height: p.getHeight(), cutShort: p.didExceedMaxLines() });
      seen.quietFrames = 0;
      return drawParagraph.call(this, p, x, y);
    };
  };
  let canvasKit;
  Object.defineProperty(window, 'flutterCanvasKit', {
    configurable: true, get: () => canvasKit, set: (loaded) => { canvasKit = loaded; if (loaded) watch(loaded); },
  });
})();"""
"""Installed with ``page.add_init_script``: records what every drawn paragraph shows."""

QUIET = "() => window.__texts.quietFrames >= 10"
"""The screen has drawn no text for ten frames: what it shows has settled."""

CLIPPED = """([width, minButton]) => {
  const word = /[\\p{L}\\p{N}]/u;
  const found = [];
  for (const { text, lines, cutShort } of window.__texts.drawn.values()) {
    if (!word.test(text)) continue;  // an icon
    if (cutShort) { found.push(`"${text}" is cut short (ellipsis or lost lines)`); continue; }
    lines.slice(1).forEach(({ start }) => {
      if (word.test(text[start - 1] || '') && word.test(text[start] || ''))
        found.push(`"${text}" breaks a word across lines ("${text.slice(0, start)}|${text.slice(start)}")`);
    });
  }
  const label = e => (e.getAttribute('aria-label') || e.textContent).trim();
  const labels = [...document.querySelectorAll('flt-semantics')].filter(label);
  const buttons = labels.filter(e => e.getAttribute('role') === 'button');
  const needs = new Map();  // a text's least height as drawn (the same text may also show elsewhere, larger)
  for (const { text, height } of window.__texts.drawn.values())
    needs.set(text.trim(), Math.min(height, needs.get(text.trim()) ?? Infinity));
  for (const [text, height] of needs) {
    const shown = Math.max(0, ...buttons.filter(e => label(e) === text).map(e => e.getBoundingClientRect().height));
    if (shown >= minButton && shown + 1 < height)  // (a button shown less high is scrolled partly out of sight)
      found.push(`"${text}" needs ${Math.round(height)} px and its button is ${Math.round(shown)} px high`);
  }
  for (const e of labels) {
    const box = e.getBoundingClientRect();
    if (box.width > 0 && (box.left < -1 || box.right > width + 1))
      found.push(`"${(e.getAttribute('aria-label') || e.textContent).trim()}" runs off the screen (${Math.round(box.left)}..${Math.round(box.right)} px)`);
  }
  return [...new Set(found)];
}"""
"""Every text drawn on the page that does not show in full, in words."""


FLET_ERRORS = """() => [...new Set([...window.__texts.drawn.values()].map(({ text }) => text)
  .filter(text => /^(?:[A-Z]\\w*(?:\\.\\w+)? must be\\b|Unknown control: )/.test(text)))]"""
"""The messages Flet's client draws in a red bar where a control cannot be drawn (say,
"Semantics.content must be provided and visible")."""


def flet_errors(phone: Phone) -> list[str]:
    """Once the screen has settled, every error bar Flet's client draws on it in place of a control."""
    phone.until(QUIET)
    return phone.page.evaluate(FLET_ERRORS)


def clipped_texts(phone: Phone) -> list[str]:
    """Once the screen has settled, each text on it that is cut short, broken inside a word,
    partly off the screen or taller than its button."""
    phone.until(QUIET)
    read = phone.page.evaluate("() => window.__texts.drawn.size")
    assert read, "no text was read: the app is not drawn by CanvasKit (FLET_WEB_RENDERER=canvaskit)"
    return phone.page.evaluate(CLIPPED, [PHONE["width"], BUTTON_HEIGHT])


BUTTON_HEIGHT = 40
"""The smallest height Material 3 draws a button at: one shown less tall is cut (Flutter's
accessibility tree gives a cut control only its visible part)."""


def cut_off(phone: Phone, identifier: str) -> list[str]:
    """A control that must show in full (a bar's button below scrolling content) if it is cut:
    a bar of fixed height cuts what it cannot hold, and the text engine sees nothing cut short."""
    box = phone.wait(identifier).bounding_box()
    if box is not None and box["height"] >= BUTTON_HEIGHT and box["y"] + box["height"] <= PHONE["height"] + 1:
        return []
    return [f"{identifier!r} is cut: it shows as {box}, on a screen {PHONE['height']} px high"]
