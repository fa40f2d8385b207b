// The kubelet's configuration file (--config, /var/lib/kubelet/config.yaml under kubeadm), read by the agent
// from a read-only hostPath instead of the kubelet's /configz (which is `nodes/proxy`: see kubeletDirect.ts).
// The file is a KubeletConfiguration (apiVersion kubelet.config.k8s.io/v1beta1) in YAML or JSON; the fields
// are read by their JSON names from pkg/kubelet/apis/config/v1beta1 (staging
// k8s.io/kubelet/config/v1beta1/types.go: runtimeRequestTimeout, maxPods, featureGates,
// nodeStatusUpdateFrequency). Unlike /configz the file is not defaulted: a field it lacks is the kubelet's
// default (SetDefaults_KubeletConfiguration: runtimeRequestTimeout 2m, which readKubeletConfiguration
// applies) or a command-line flag the agent cannot see; maxPods is then left to the Node's capacity.pods.

import { readFile } from 'node:fs/promises';
import { load } from 'js-yaml';
import type { Fetched } from '../../core/diagnose/evidence';
import { readKubeletConfiguration } from '../../core/parse/kubeletConfigz';
import type { KubeletConfigz } from '../../core/parse/kubeletEndpointTypes';
import { errorText } from '../../core/util/errorText';

const KIND = 'KubeletConfiguration';
const GROUP = 'kubelet.config.k8s.io/';

/** The file's text as a KubeletConfigz; throws an Error naming the file and the cause. */
export function parseKubeletConfigFile(text: string, file: string): KubeletConfigz {
  let root: unknown;
  try {
    root = load(text, { filename: file });
  } catch (err) {
    throw new Error(`${file}: not YAML or JSON: ${errorText(err)}`, { cause: err });
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new Error(`${file}: expected a ${KIND} object`);
  const object = root as Record<string, unknown>;
  if (object['kind'] !== KIND) throw new Error(`${file}: kind is ${JSON.stringify(object['kind'])}, expected ${KIND}`);
  const apiVersion = object['apiVersion'];
  if (typeof apiVersion !== 'string' || !apiVersion.startsWith(GROUP)) throw new Error(`${file}: apiVersion is ${JSON.stringify(apiVersion)}, expected ${GROUP}v1beta1`);
  try {
    return readKubeletConfiguration(object, file);
  } catch (err) {
    throw new Error(errorText(err), { cause: err });
  }
}

export async function readKubeletConfigFile(file: string): Promise<Fetched<KubeletConfigz>> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { status: 'failed', message: `cannot read the kubelet config file ${file}: ${errorText(err)} (mount it read-only by hostPath)`, ms: ms() };
  }
  try {
    return { status: 'ok', value: parseKubeletConfigFile(text, file), ms: ms() };
  } catch (err) {
    return { status: 'failed', message: errorText(err), ms: ms() };
  }
}
