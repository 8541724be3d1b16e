// The writes fixture (../writes.server.ts) as a resource route: no page, its answers are the answer.
export { action, loader } from '../writes.server.ts';
