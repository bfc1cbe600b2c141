import type { ReactNode } from "react";
import "@/components/chat/chat.css";
import "@/components/request-form/request-form.css";

export default function ChatLayout({ children }: { children: ReactNode }) {
  return children;
}
