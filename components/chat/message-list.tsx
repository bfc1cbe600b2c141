"use client";

import type { ReadEscalation } from "@/components/request-form/escalation-steps";
import type { SubmitAnswer } from "@/components/request-form/request-view";
import type { ReadTally } from "@/components/request-form/vote-tally-view";
import type { ChatMessage } from "@/lib/domain/chat-message";
import type { ReadAnswerData } from "./pending-card";
import { PendingCard } from "./pending-card";
import { RunStatusLine } from "./run-status-line";
import { ToolCallCard } from "./tool-call-card";

interface MessageListProps {
  messages: ChatMessage[];
  viewerId: string;
  submitFor: (requestId: string) => SubmitAnswer;
  readTally?: ReadTally | undefined;
  readEscalation?: ReadEscalation | undefined;
  readAnswer?: ReadAnswerData | undefined;
}

/**
 * The run's status part is written first and then rewritten in place, so it sits at the front
 * of the parts; it reads as a footer, so it is shown last.
 */
function inReadingOrder(parts: ChatMessage["parts"]): ChatMessage["parts"] {
  return [
    ...parts.filter((part) => part.type !== "data-run"),
    ...parts.filter((part) => part.type === "data-run"),
  ];
}

export function MessageList({
  messages,
  viewerId,
  submitFor,
  readTally,
  readEscalation,
  readAnswer,
}: MessageListProps) {
  if (messages.length === 0) {
    return <p className="muted">No messages yet. Ask for something below.</p>;
  }
  return (
    <ol className="message-list" aria-label="Messages">
      {messages.map((message) => (
        <li key={message.id} className={`message message-${message.role}`}>
          <span className="visually-hidden">{message.role === "user" ? "You said:" : "Assistant:"}</span>
          {inReadingOrder(message.parts).map((part, index) => {
            const key = "id" in part && part.id ? `${part.type}-${part.id}` : `${part.type}-${index}`;
            switch (part.type) {
              case "text":
                return (
                  <p key={key} className="message-text">
                    {part.text}
                  </p>
                );
              case "data-tool":
                return <ToolCallCard key={key} tool={part.data} />;
              case "data-request":
                return (
                  <PendingCard
                    key={key}
                    card={part.data}
                    viewerId={viewerId}
                    submit={submitFor(part.data.view.id)}
                    readTally={readTally}
                    readAnswer={readAnswer}
                    readEscalation={readEscalation}
                  />
                );
              case "data-run":
                return <RunStatusLine key={key} run={part.data} />;
              default:
                return null;
            }
          })}
        </li>
      ))}
    </ol>
  );
}
