"use client";

import { useState } from "react";

/**
 * Copies `text` to the clipboard and says so in words (announced politely). Where the browser
 * refuses (an insecure origin), it says to select and copy instead.
 */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [said, setSaid] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid("Copied.");
    } catch {
      setSaid("Copying is not allowed here: select the text and copy it.");
    }
  };
  return (
    <span className="copy-button">
      <button type="button" className="button button-secondary" onClick={() => void copy()}>
        {label}
      </button>{" "}
      <span role="status" className="muted">
        {said}
      </span>
    </span>
  );
}
