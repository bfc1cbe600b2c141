import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { AppHeader } from "./app-header";
import { DecisionToasts } from "./decisions/decision-toasts";
import "./globals.css";
import "./styles/nav.css";
import "./styles/forms.css";
import "./styles/outcomes.css";
import "./styles/shortcuts.css";

export const metadata: Metadata = {
  title: "toolnexus",
  description: "Chat with an agent whose tool calls wait for people: approvals, forms, questions, sign-ins.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <DecisionToasts>
          <AppHeader />
          <main id="main" className="app-main">
            {children}
          </main>
        </DecisionToasts>
      </body>
    </html>
  );
}
