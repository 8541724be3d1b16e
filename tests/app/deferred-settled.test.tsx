// A deferred value that reached the browser before its part of the page renders at once, in
// React Router's <Await> and in React's use(): the browser's registry marks the promise settled
// the way both read it (client/router/browser/deferred-client.tsx). Rendered to a string, a promise
// neither can read as settled shows its fallback instead, so these fail the day either library
// stops reading the marks.
import { Suspense, use, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { Await } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DEFERRED_KEY } from '../../client/router/both/deferred.ts';
import { createDeferredRegistry } from '../../client/router/browser/deferred-client.tsx';
import { routeFailure } from '../../client/router/both/route-failure.ts';

const FALLBACK = 'still-waiting';

/** The promise the registry gives a route's loader data for the marker `id`. */
function revived(registry: ReturnType<typeof createDeferredRegistry>, id: string): Promise<unknown> {
  const data = registry.revive({ page: { later: { [DEFERRED_KEY]: id } } });
  return (data.page as { later: Promise<unknown> }).later;
}

function inSuspense(children: ReactNode): string {
  return renderToString(<Suspense fallback={FALLBACK}>{children}</Suspense>);
}

function UseValue({ promise }: { promise: Promise<unknown> }) {
  return <>{String(use(promise))}</>;
}

describe('deferred values that arrived before their part of the page', () => {
  it('render at once in <Await> when the page script came before the loader data was revived', () => {
    const registry = createDeferredRegistry();
    registry.settle({ id: 'd1', value: 'arrived-early' });
    const html = inSuspense(<Await resolve={revived(registry, 'd1')}>{(value) => String(value)}</Await>);
    expect(html).toContain('arrived-early');
    expect(html).not.toContain(FALLBACK);
  });

  it('render at once in <Await> when the page script came after the loader data was revived', () => {
    const registry = createDeferredRegistry();
    const promise = revived(registry, 'd2');
    registry.settle({ id: 'd2', value: 'arrived-later' });
    const html = inSuspense(<Await resolve={promise}>{(value) => String(value)}</Await>);
    expect(html).toContain('arrived-later');
    expect(html).not.toContain(FALLBACK);
  });

  it("show <Await>'s error element at once for a value that failed on the server", () => {
    const registry = createDeferredRegistry();
    registry.settle({ id: 'd3', failure: routeFailure(500, 'digest-d3') });
    const html = inSuspense(
      <Await resolve={revived(registry, 'd3')} errorElement={<p>section-failed</p>}>
        {(value) => String(value)}
      </Await>,
    );
    expect(html).toContain('section-failed');
    expect(html).not.toContain(FALLBACK);
  });

  it("render at once through React's use()", () => {
    const registry = createDeferredRegistry();
    registry.settle({ id: 'd4', value: 'read-by-use' });
    const html = inSuspense(<UseValue promise={revived(registry, 'd4')} />);
    expect(html).toContain('read-by-use');
    expect(html).not.toContain(FALLBACK);
  });
});
