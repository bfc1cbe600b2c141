import type { Locator } from "@playwright/test";

/**
 * What of `scope` a person cannot reach well: its controls and alerts that stick out of the
 * screen or out of a box that clips what overflows it, the page itself when it is wider than the
 * screen, and on a touch screen any control less than a finger (44 CSS px) high. `controls` says
 * which elements count as controls (say, a card's links and disclosures too).
 */
export function unreachable(scope: Locator, controls = "input, select, button"): Promise<string[]> {
  return scope.evaluate((root, selector) => {
    const width = document.documentElement.clientWidth;
    const touch = matchMedia("(pointer: coarse)").matches;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) found.push("the page is wider than the screen");
    for (const element of root.querySelectorAll(`${selector}, [role=alert]`)) {
      const box = element.getBoundingClientRect();
      const name = (element.closest("label")?.textContent ?? element.textContent ?? element.tagName).trim();
      if (touch && element.getAttribute("role") !== "alert" && box.height > 0 && box.height < 43.5)
        found.push(`${name} is ${box.height} px high`);
      let left = 0;
      let right = width;
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      ) {
        if (getComputedStyle(parent).overflowX === "visible") continue;
        const bounds = parent.getBoundingClientRect();
        left = Math.max(left, bounds.left);
        right = Math.min(right, bounds.right);
      }
      if (box.left < left - 0.5 || box.right > right + 0.5)
        found.push(
          `${name} is cut off (${Math.round(box.left)}–${Math.round(box.right)} of ${left}–${right})`,
        );
    }
    return found;
  }, controls);
}
