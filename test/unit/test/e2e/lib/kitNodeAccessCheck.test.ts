// The node access check's judgement (test/e2e/lib/kitNodeAccessCheck.mjs) on what the editor showed in the real
// 1.26 window (test/fixtures/kit-node-access-1.26, unedited), and on the same captures changed the way a
// regression would change them: a snapshot or node side that came another way, the agent's container missing,
// a node side skipped, a modal naming another image, a log that is not journalctl's, a pod or task left.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  judgeDebugPodModal, judgeDiagnosisReport, judgeNodeLog, judgeNothingLeft, judgeSnapshotDocument, judgeSnapshotSummary, type NodeAccessFacts,
} from '../../../../e2e/lib/kitNodeAccessCheck.mjs';

interface Modal {
  message: string;
  detail: string;
  buttons: string[];
  blocking: boolean;
}
interface Capture {
  facts: Omit<NodeAccessFacts, 'debugPods' | 'runningTasks' | 'nodeJournal'>;
  snapshot: { message: string; document: { access: string; snapshot: { containers: { id: string }[] } } };
  report: string;
  modal: Modal;
  kubeletLog: { text: string; journal: { stdout: string; stderr: string } };
}

const real = JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/kit-node-access-1.26/node-access.json'), 'utf8')) as Capture;
const { facts } = real;
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('the snapshot through the agent pod', () => {
  it('holds on the real capture: the way, the age, the agent sandbox and container', () => {
    const summary = judgeSnapshotSummary(real.snapshot.message, facts);
    expect(summary).toMatchObject({ access: `via agent pod ${facts.agentPod}, taken 27s ago`, sandboxes: 1, containers: 1, transport: 'unixSocket' });
    expect(judgeSnapshotDocument(real.snapshot.document, summary, facts).container.id).toBe(facts.agentContainerId);
  });

  it('fails when the snapshot came over SSH or through a debug pod', () => {
    expect(() => judgeSnapshotSummary(real.snapshot.message.replace(/\(via agent pod [^)]+\)/u, '(via SSH core@127.0.0.1:22)'), facts)).toThrow(/does not read "CRI snapshot of realk8s-node \(via agent pod/u);
    const summary = judgeSnapshotSummary(real.snapshot.message, facts);
    const viaPod = { ...copy(real.snapshot.document), access: 'via debug pod pleg-doctor/pleg-doctor-debug-b2c4d on realk8s-node' };
    expect(() => judgeSnapshotDocument(viaPod, summary, facts)).toThrow(/is not "via agent pod pleg-doctor\/pleg-doctor-agent-648zh, taken … ago"/u);
  });

  it("fails when the document lacks the agent's container (a snapshot of another node or runtime)", () => {
    const summary = judgeSnapshotSummary(real.snapshot.message, facts);
    const doc = copy(real.snapshot.document);
    doc.snapshot.containers[0]!.id = 'f'.repeat(64);
    expect(() => judgeSnapshotDocument(doc, summary, facts)).toThrow(/the agent's container 9f6fde00609a.* is not among/u);
  });
});

describe("Diagnose Node's node side through the agent pod", () => {
  it('holds on the real report', () => {
    expect(judgeDiagnosisReport(real.report, facts)).toMatch(/^\| nodeSide \| ok \| \d+ \| via agent pod pleg-doctor\/pleg-doctor-agent-648zh, taken 30s ago \|; 2 checks cite the CRI snapshot$/u);
  });

  it('fails when the node side was skipped (no way to the node)', () => {
    const skipped = real.report
      .replace(/\| nodeSide \| ok \| \d+ \| [^|]+\|/u, '| nodeSide | skipped |  | no agent (none on the node); no SSH |')
      .replace(/; 0 exited containers in the CRI snapshot/u, '')
      .replace(/NetworkReady=true in CRI Status; /u, '');
    expect(() => judgeDiagnosisReport(skipped, facts)).toThrow(/the Evidence row of nodeSide is not ok/u);
    const agentRowOnly = skipped.replace(/\| nodeSide \| skipped \|[^\n]+/u, `| nodeSide | ok | 90 | via agent pod ${facts.agentPod}, taken 3s ago |`);
    expect(() => judgeDiagnosisReport(agentRowOnly, facts)).toThrow(/no check cites the CRI snapshot or CRI Status/u);
  });

  it('fails when the node side came another way', () => {
    expect(() => judgeDiagnosisReport(real.report.replace(/via agent pod [^|]+/u, 'via SSH root@127.0.0.1:22 '), facts)).toThrow(/does not name the agent pod/u);
  });
});

describe("the debug pod's modal", () => {
  it('holds on the real modal: pod, image and where it came from, privileges, why', () => {
    expect(judgeDebugPodModal(real.modal, facts)).toMatch(/^pleg-doctor\/pleg-doctor-debug-[a-z0-9]{5}$/u);
  });

  it('fails when it names another image, hides a privilege, or is not modal', () => {
    expect(() => judgeDebugPodModal({ ...real.modal, detail: real.modal.detail.replaceAll('localhost/pleg-doctor-agent:dev', 'ghcr.io/x/agent:1') }, facts)).toThrow(/lacks "image: localhost\/pleg-doctor-agent:dev"/u);
    expect(() => judgeDebugPodModal({ ...real.modal, detail: real.modal.detail.replace(' (hostNetwork)', '') }, facts)).toThrow(/lacks "privileges: the node's network namespace \(hostNetwork\)/u);
    expect(() => judgeDebugPodModal({ ...real.modal, blocking: false }, facts)).toThrow(/not modal/u);
  });
});

describe('the kubelet log through the debug pod', () => {
  it("holds on the real document: journalctl's \"-- No entries --\" and the note that /var/log/journal holds no journal file", () => {
    expect(judgeNodeLog(real.kubeletLog.text, real.kubeletLog.journal, facts.journalDir)).toMatch(/No journal files were found\.\), and the note/u);
  });

  it("fails without the note, or with lines journalctl did not print", () => {
    expect(() => judgeNodeLog('-- No entries --\n', real.kubeletLog.journal, facts.journalDir)).toThrow(/does not end with "-- PLEG Doctor \(debug pod\): no journal file in \/var\/log\/journal/u);
    const entry = 'Nov 28 20:19:01.000001 vm kubelet[4242]: I1128 20:19:01.000000    4242 kubelet.go:2450] "SyncLoop (PLEG)"';
    expect(() => judgeNodeLog(`${entry}\n`, real.kubeletLog.journal, facts.journalDir)).toThrow(/journalctl finds no kubelet entry on the node/u);
    const journal = { stdout: `${entry.replace('4242', '4243')}\n`, stderr: '' };
    expect(() => judgeNodeLog(`${entry}\n`, journal, facts.journalDir)).toThrow(/1 of the document's entries are not journalctl's/u);
    expect(judgeNodeLog(`${entry}\n`, { stdout: `${entry}\n`, stderr: '' }, facts.journalDir)).toBe('1 kubelet entries, each as journalctl prints it');
  });
});

describe('nothing left after the pod', () => {
  it('a pod on the API server or a task it started still running in containerd is a problem', () => {
    expect(judgeNothingLeft([], ['a', 'b'], ['b', 'a'])).toEqual([]);
    expect(judgeNothingLeft(['pleg-doctor/pleg-doctor-debug-b2c4d'], ['a'], ['a'])).toEqual(['debug pods left on the API server: pleg-doctor/pleg-doctor-debug-b2c4d']);
    expect(judgeNothingLeft([], ['a'], ['a', 'c'])).toEqual(['containerd still runs 1 task(s) started during the check: c']);
  });
});
