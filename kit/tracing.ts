import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base'

// OpenTelemetry traces. Off unless started: without a provider the API's tracer makes no-op spans, so the
// instrumented code costs next to nothing. A trace crosses processes in the carrier (W3C traceparent) that
// the producer puts into a job's data.

const TRACER = 'venue-gateway'

export interface Tracing {
  forceFlush(): Promise<void>
  shutdown(): Promise<void>
}

/**
 * Starts exporting spans: over OTLP/HTTP to `endpoint` (batched), or to `exporter` (each span at its end,
 * for tests). Registers the provider, the async context and the W3C propagator for this process.
 */
export function startTracing(options: { serviceName: string; endpoint?: string; exporter?: SpanExporter }): Tracing {
  const processor = options.exporter
    ? new SimpleSpanProcessor(options.exporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', withSlash(options.endpoint!)).href }))
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [processor],
  })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  return {
    forceFlush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown()
      trace.disable()
      propagation.disable()
      context.disable()
    },
  }
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`)

/** Runs `work` in a new span (a child of the active one, or of `parent`), ending it with its outcome. */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer(TRACER)
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span)
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) })
        throw error
      } finally {
        span.end()
      }
    },
  )
}

/** The active trace context as a carrier for another process (`{ traceparent }`); empty when tracing is off. */
export function traceCarrier(): Record<string, string> {
  const carrier: Record<string, string> = {}
  propagation.inject(context.active(), carrier)
  return carrier
}

/** The context a carrier from another process continues. */
export const continuedFrom = (carrier: Record<string, string> | undefined): Context => propagation.extract(context.active(), carrier ?? {})

export { SpanKind }
