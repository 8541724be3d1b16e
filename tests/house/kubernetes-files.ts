// The manifests of deploy/kubernetes/ as `kubectl apply -k` reads them: the files its
// kustomization.yaml lists, each parsed into its documents. Shared by deploy-files.test.ts and
// kubernetes-platform.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from '../../tools/harness/paths.ts';

export const K8S_DIR = join(ROOT, 'deploy/kubernetes');
export const MONITORING_DIR = join(K8S_DIR, 'monitoring');

export interface Manifest {
  file: string;
  doc: { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> } } & Record<string, unknown>;
}

export interface Kustomization {
  resources: string[];
  images?: { name: string; newTag?: string; digest?: string }[];
}

export const kustomization = (dir = K8S_DIR) => parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;

/** Every document of every file the directory's kustomization lists. */
export function manifests(dir = K8S_DIR): Manifest[] {
  return kustomization(dir).resources.flatMap((file) =>
    parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => ({ file, doc: doc.toJS() as Manifest['doc'] })),
  );
}

/** The app's own document of a kind (metadata.name react-ssr-host), or another's by its name. */
export function find<T>(kind: string, name = 'react-ssr-host', dir = K8S_DIR): T {
  const found = manifests(dir).find(({ doc }) => doc.kind === kind && doc.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in ${dir}`);
  return found.doc as unknown as T;
}

/** postgres.yaml's StatefulSet, Service and NetworkPolicy. */
export const POSTGRES = 'react-ssr-host-postgres';
/** The Secret the operator creates (docs/deploy.md): the database's URL for the app, its password for the database. */
export const DATABASE_SECRET = 'react-ssr-host-database';

/** What a test puts where a pod reads a Secret: long enough for any of the host's (SESSION_SECRET wants 32+ characters). */
export const SECRET_STAND_IN = 'a-secret-from-the-cluster-0123456789';

/**
 * Every `kubectl create secret generic react-ssr-host-database …` command the given text shows
 * (docs/deploy.md, deployment.yaml's header), a comment's `#` and line breaks taken out: there is
 * no Secret in the repository, so this command is what makes it.
 */
export function databaseSecretCommands(text: string): string[] {
  const flat = text.replace(/\\\n[#\s]*/g, ' ');
  return [...flat.matchAll(/kubectl create secret generic react-ssr-host-database [^\n]*/g)].map(([command]) => command.trim());
}

/** The database's URL as docs/deploy.md's command puts it in the Secret, its `$password` a stand-in. */
export function documentedDatabaseUrl(): string {
  const [command] = databaseSecretCommands(readFileSync(join(ROOT, 'docs/deploy.md'), 'utf8'));
  const url = command && /--from-literal=url="([^"]+)"/.exec(command)?.[1];
  if (!url) throw new Error('docs/deploy.md shows no `kubectl create secret generic react-ssr-host-database … --from-literal=url=…`');
  return url.replace('$password', SECRET_STAND_IN);
}

/** A container's environment as its pod gets it, each Secret's value a stand-in: a `url` key the documented database URL. */
export function containerEnv(container: IContainer): Record<string, string> {
  return Object.fromEntries(
    (container.env ?? []).map((item) => [
      item.name,
      item.value ?? (item.valueFrom?.secretKeyRef?.key === 'url' ? documentedDatabaseUrl() : SECRET_STAND_IN),
    ]),
  );
}
