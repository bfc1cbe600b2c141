"use client";

import { mcpElicitationOf } from "@/lib/domain/mcp-elicitation";
import { requestKindSpec, unhandledKindForm } from "@/lib/domain/request-kinds";
import type { RequestView } from "@/lib/domain/request-view";
import { AnsweredRequest } from "./answered-request";
import { ApprovalForm } from "./approval-form";
import { AuthorizationNotice } from "./authorization-notice";
import { ElicitationForm } from "./elicitation-form";
import { followableUrl } from "./followable-url";
import { JsonAnswerForm } from "./json-answer-form";
import { readQuestions } from "./question-answer";
import { QuestionForm } from "./question-form";
import type { SubmitAnswer } from "./request-view";
import { SchemaRequestForm } from "./schema-request-form";
import { UrlElicitation } from "./url-elicitation";

interface RequestFormProps {
  view: RequestView;
  submit: SubmitAnswer;
  /** False when the viewer may look but not answer (e.g. the owner of an approval). */
  canAnswer: boolean;
  onSent?: () => void;
  /** Overrides where an authorization request's "Continue" link goes (default: its `url`). */
  continueHref?: string;
}

/** Renders the right answer form for a request's kind; the inbox and the chat share it. */
export function RequestForm({ view, submit, canAnswer, onSent, continueHref }: RequestFormProps) {
  if (view.status !== "open")
    return (
      <AnsweredRequest
        kind={view.request.kind}
        status={view.status}
        answer={view.answer}
        schema={view.request.data?.schema}
      />
    );
  if (!canAnswer) {
    return (
      <p className="muted">
        {view.audience === "reviewers"
          ? "Waiting for a reviewer."
          : view.audience === "group"
            ? "Waiting for the group's approvals."
            : "Waiting for the user to answer."}
      </p>
    );
  }
  const { request } = view;
  const form = requestKindSpec(request.kind).form;
  switch (form) {
    case "approval":
      return <ApprovalForm data={request.data} args={view.args} submit={submit} onSent={onSent} />;
    case "sign-in": {
      // An MCP server's URL elicitation is a link to the server's page, answered by the owner.
      const elicitation = mcpElicitationOf(request);
      if (elicitation?.mode === "url") {
        return (
          <UrlElicitation url={request.url} server={elicitation.server} submit={submit} onSent={onSent} />
        );
      }
      const host = typeof request.data?.host === "string" ? request.data.host : undefined;
      return <AuthorizationNotice continueHref={continueHref ?? followableUrl(request.url)} host={host} />;
    }
    case "input": {
      const elicitation = mcpElicitationOf(request);
      if (elicitation?.mode === "form") {
        return (
          <ElicitationForm
            schema={request.data?.schema}
            server={elicitation.server}
            submit={submit}
            onSent={onSent}
          />
        );
      }
      return <DataForm data={request.data} submit={submit} onSent={onSent} />;
    }
    case "question": {
      const questions = readQuestions(request.data);
      if (questions.length > 0) return <QuestionForm questions={questions} submit={submit} onSent={onSent} />;
      return <DataForm data={request.data} submit={submit} onSent={onSent} />;
    }
    case "data":
      return <DataForm data={request.data} submit={submit} onSent={onSent} />;
    default:
      return unhandledKindForm(form);
  }
}

/** A schema form when the request carries `data.schema`, else a box for any JSON answer. */
function DataForm({
  data,
  submit,
  onSent,
}: {
  data: RequestView["request"]["data"];
  submit: SubmitAnswer;
  onSent?: () => void;
}) {
  const schema = data?.schema;
  if (typeof schema === "object" && schema !== null && !Array.isArray(schema)) {
    return <SchemaRequestForm schema={schema as Record<string, unknown>} submit={submit} onSent={onSent} />;
  }
  return <JsonAnswerForm submit={submit} onSent={onSent} />;
}
