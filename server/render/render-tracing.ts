import type { ServerEntryModule } from 'react-router';

/**
 * What OTLP export adds to a render (server/telemetry/otel.ts): React Router instrumentations
 * beside the app's own, and a span over the document's render and streaming.
 */
export interface RenderTracing {
  instrumentations: NonNullable<ServerEntryModule['instrumentations']>;
  traceDocument(render: () => Promise<Response>): Promise<Response>;
}
