// A resource route with a loader and no action: its Response is the answer to GET and HEAD, and a
// write to it is a 405 naming the methods it has (server/render/route-table.ts).
export function loader() {
  // A list that changes: a cache may keep it only while it revalidates.
  return Response.json({ items: ['one', 'two'] }, { headers: { 'Cache-Control': 'no-cache' } });
}
