/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Layout checks read from the page's boxes: sideways scrolling, long names running out of their panel or
 * over a neighbouring element, and names broken inside a part.
 */
import type { Page } from '@playwright/test';

/** How far the page scrolls sideways (0 when it does not). */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
}

/**
 * Every visible name (`.model-key`) that runs out of its panel, or over an element beside it: at each level
 * from the name up to its panel, the element's box must not cross a visible sibling's box. One line each.
 */
export function namesOverlapping(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const visible = (el: Element): boolean => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    // Boxes touching or crossing by under a pixel (rounding) are not overlaps.
    const cross = (a: DOMRect, b: DOMRect): boolean =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    const problems: string[] = [];
    for (const name of document.querySelectorAll('.model-key')) {
      if (!visible(name)) continue;
      const panel = name.closest('.panel');
      const label = name.getAttribute('title') ?? name.textContent ?? '';
      const box = name.getBoundingClientRect();
      if (panel !== null) {
        const edge = panel.getBoundingClientRect();
        if (box.right > edge.right + 0.5 || box.left < edge.left - 0.5)
          problems.push(
            `${label}: out of its panel (${box.left}–${box.right} in ${edge.left}–${edge.right})`,
          );
      }
      for (let el: Element | null = name; el !== null && el !== panel; el = el.parentElement) {
        const own = el.getBoundingClientRect();
        for (const sibling of el.parentElement?.children ?? []) {
          if (sibling === el || !visible(sibling)) continue;
          if (cross(own, sibling.getBoundingClientRect()))
            problems.push(
              `${label}: <${el.tagName.toLowerCase()} class="${el.className}"> over "${sibling.textContent?.slice(0, 40)}"`,
            );
        }
      }
    }
    return problems;
  });
}

/**
 * Every visible name matching `selector` that breaks onto a new line other than after a `/` (or a space):
 * a name broken inside a word, `opencode/1.18.3` over `3`. Read character by character from the text's
 * line boxes.
 */
export function namesBrokenInside(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((css) => {
    const broken: string[] = [];
    for (const el of document.querySelectorAll(css)) {
      if (el.getBoundingClientRect().width === 0) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let previous: { char: string; top: number } | null = null;
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let i = 0; i < text.length; i += 1) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect === undefined) continue;
          const char = text.charAt(i);
          if (previous !== null && rect.top > previous.top + 2 && !/[/\s]/.test(previous.char)) {
            broken.push(el.textContent ?? '');
            break;
          }
          previous = { char, top: rect.top };
        }
      }
    }
    return [...new Set(broken)];
  }, selector);
}

/**
 * Every visible element matching `selector` (controls, say) that runs past the window's left or right edge
 * or out of its panel, where a narrow screen cannot reach or show it. One line each, naming the element.
 */
export function outOfBounds(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((css) => {
    const width = document.documentElement.clientWidth;
    const outside: string[] = [];
    for (const el of document.querySelectorAll(css)) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      if (box.right <= 0) continue; // Parked out of sight until focused, as the skip link is.
      const edge = el.closest('.panel')?.getBoundingClientRect() ?? { left: 0, right: width };
      const left = Math.max(0, edge.left);
      const right = Math.min(width, edge.right);
      if (box.left < left - 0.5 || box.right > right + 0.5) {
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
        outside.push(`<${el.tagName.toLowerCase()}> ${name}: ${box.left}–${box.right} in ${left}–${right}`);
      }
    }
    return outside;
  }, selector);
}
