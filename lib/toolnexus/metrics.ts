import type { Metric } from "./types";

// Seconds. Fixed, so two processes (or two ports of this API) expose comparable histograms.
const BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

type Labels = [name: string, value: string][];

const NEEDS_ESCAPE = /[\\"\n]/;

function quoted(value: string): string {
  // Most values (model and tool names) need no escaping: skip the three rewrites for them.
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labelText(labels: Labels): string {
  let text = "";
  for (const [name, value] of labels) text += `${text === "" ? "" : ","}${name}="${quoted(value)}"`;
  return text;
}

const PROMPT_TOKENS = labelText([["type", "prompt"]]);
const COMPLETION_TOKENS = labelText([["type", "completion"]]);

function sample(name: string, labels: string, value: number): string {
  return labels === "" ? `${name} ${value}` : `${name}{${labels}} ${value}`;
}

/**
 * Cumulative counters and histograms over the records `onMetric` hears, rendered as Prometheus
 * text. Hand-written: six series, and the exposition format is a few lines of text.
 */
export class MetricsRegistry {
  private readonly counters = new Map<string, Map<string, number>>();
  private readonly histograms = new Map<string, Map<string, Histogram>>();
  // Records are folded in batches, off the loop's path: a run only pays for an array push.
  private unfolded: Metric[] = [];

  record(metric: Metric): void {
    this.unfolded.push(metric);
    if (this.unfolded.length >= 256) this.fold();
  }

  private fold(): void {
    const batch = this.unfolded;
    this.unfolded = [];
    for (const metric of batch) this.count(metric);
  }

  private count(metric: Metric): void {
    if (metric.event === "llm") {
      this.add(
        "llm_requests",
        labelText([
          ["model", metric.model],
          ["status", metric.status],
        ]),
        1,
      );
      if (metric.status === "ok") {
        this.add("llm_tokens", PROMPT_TOKENS, metric.promptTokens);
        this.add("llm_tokens", COMPLETION_TOKENS, metric.completionTokens);
      }
      this.observe("llm_duration", labelText([["model", metric.model]]), metric.ms / 1000);
    } else if (metric.event === "tool") {
      const labels: Labels = [
        ["tool", metric.tool],
        ["source", metric.source],
        ["is_error", String(metric.isError)],
        ["pending", String(metric.pending === true)],
      ];
      this.add("tool_calls", labelText(labels), 1);
      this.observe("tool_duration", labelText([["tool", metric.tool]]), metric.ms / 1000);
    } else if (metric.error !== undefined) {
      this.add("run_errors", labelText([["model", metric.model]]), 1);
    }
  }

  /** The exposition text; every series' HELP and TYPE lines are there even before any activity. */
  render(): string {
    this.fold();
    const lines: string[] = [];
    this.counter(lines, "toolnexus_llm_requests_total", "Total LLM requests.", "llm_requests");
    this.counter(lines, "toolnexus_llm_tokens_total", "Total tokens, by type.", "llm_tokens");
    this.histogram(
      lines,
      "toolnexus_llm_request_duration_seconds",
      "LLM request duration in seconds.",
      "llm_duration",
    );
    this.counter(lines, "toolnexus_tool_calls_total", "Total tool calls.", "tool_calls");
    this.histogram(
      lines,
      "toolnexus_tool_duration_seconds",
      "Tool execution duration in seconds.",
      "tool_duration",
    );
    this.counter(lines, "toolnexus_run_errors_total", "Total run errors.", "run_errors");
    return `${lines.join("\n")}\n`;
  }

  private add(series: string, labels: string, by: number): void {
    let values = this.counters.get(series);
    if (!values) {
      values = new Map();
      this.counters.set(series, values);
    }
    values.set(labels, (values.get(labels) ?? 0) + by);
  }

  private observe(series: string, labels: string, seconds: number): void {
    let values = this.histograms.get(series);
    if (!values) {
      values = new Map();
      this.histograms.set(series, values);
    }
    let histogram = values.get(labels);
    if (!histogram) {
      histogram = { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
      values.set(labels, histogram);
    }
    histogram.sum += seconds;
    histogram.count += 1;
    for (let i = 0; i < BUCKETS.length; i += 1) if (seconds <= BUCKETS[i]!) histogram.buckets[i]! += 1;
  }

  private counter(lines: string[], name: string, help: string, series: string): void {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} counter`);
    const values = this.counters.get(series) ?? new Map<string, number>();
    for (const labels of [...values.keys()].sort()) lines.push(sample(name, labels, values.get(labels)!));
  }

  private histogram(lines: string[], name: string, help: string, series: string): void {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
    const values = this.histograms.get(series) ?? new Map<string, Histogram>();
    for (const labels of [...values.keys()].sort()) {
      const histogram = values.get(labels)!;
      const prefix = labels === "" ? "" : `${labels},`;
      BUCKETS.forEach((bound, i) => {
        lines.push(`${name}_bucket{${prefix}le="${bound}"} ${histogram.buckets[i]}`);
      });
      lines.push(`${name}_bucket{${prefix}le="+Inf"} ${histogram.count}`);
      lines.push(
        sample(`${name}_sum`, labels, histogram.sum),
        sample(`${name}_count`, labels, histogram.count),
      );
    }
  }
}
