"use client";

// What a new chat offers to start with: each one shows a different way a tool call waits for a
// person (a reviewer's approval, an approval with an amount, a form, a plain call).
export const EXAMPLE_PROMPTS = [
  "Deploy web v1.4 to production",
  "Refund order 1042 for $120",
  "Book a flight from BER to LIS",
  "List my tickets",
] as const;

/** Example prompts for an empty chat; picking one puts it in the message box to edit or send. */
export function ExamplePrompts({ onPick }: { onPick: (text: string) => void }) {
  return (
    <section className="example-prompts" aria-labelledby="example-prompts-title">
      <h2 id="example-prompts-title" className="example-prompts-title">
        Try asking
      </h2>
      <ul>
        {EXAMPLE_PROMPTS.map((prompt) => (
          <li key={prompt}>
            <button type="button" className="button button-secondary" onClick={() => onPick(prompt)}>
              {prompt}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
