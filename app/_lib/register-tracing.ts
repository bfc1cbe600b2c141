import type { Configuration } from "@vercel/otel";

/**
 * Tracing is off unless an OTLP endpoint is configured (the standard OpenTelemetry variables,
 * which @vercel/otel's exporter then reads itself), so a default install sends nothing anywhere.
 */
export function tracingConfigured(env: Record<string, string | undefined>): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Registers the process's tracer provider; `extra` lets tests collect spans in memory. */
export async function registerTracing(
  env: Record<string, string | undefined>,
  extra: Partial<Configuration> = {},
): Promise<void> {
  const { registerOTel } = await import("@vercel/otel");
  registerOTel({ serviceName: env.OTEL_SERVICE_NAME?.trim() || "toolnexus", ...extra });
}
