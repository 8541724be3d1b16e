// The manifests of deploy/kubernetes/ as `kubectl apply -k` reads them: the files its
// kustomization.yaml lists, each parsed into its documents. Shared by deploy-files.test.ts and
// kubernetes-platform.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
