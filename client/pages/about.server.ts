/** A Date here is its ISO string in the page: route data travels as JSON (docs/forms.md, "Types"). */
export function loader() {
  return { servedAt: new Date() };
}
