// A resource route whose loader throws: an API's failure, answered as data, not as a page.

export function loader(): never {
  throw new Error('bench: the resource route threw on purpose');
}
