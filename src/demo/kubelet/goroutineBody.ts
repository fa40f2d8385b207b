// The demo kubelet's /debug/pprof/goroutine?debug=2: a short dump in the Go runtime's layout (header
// "goroutine N [state, M minutes]:", then function and "\tfile:line +0xoff" pairs, then "created by …").
// What matters is the relist goroutine: sleeping between relists when healthy, or blocked in a CRI call
// under GetPodStatus when a shim is stuck.

import type { KubeletState } from './kubeletState';

interface Frame {
  fn: string;
  file: string;
}

interface Goroutine {
  id: number;
  state: string;
  minutes?: number;
  frames: Frame[];
  createdBy?: { fn: string; in: number; file: string };
}

function k8s(version: string, path: string): string {
  return `k8s.io/kubernetes@${version}/${path}`;
}

function staging(module: string, version: string, path: string): string {
  return `${module}@${version.replace(/^v1\./, 'v0.')}/${path}`;
}

function render(g: Goroutine): string {
  const head = `goroutine ${g.id} [${g.state}${g.minutes !== undefined && g.minutes > 0 ? `, ${g.minutes} minutes` : ''}]:`;
  const lines = [head];
  for (const f of g.frames) lines.push(f.fn, `\t${f.file}`);
  if (g.createdBy) lines.push(`created by ${g.createdBy.fn} in goroutine ${g.createdBy.in}`, `\t${g.createdBy.file}`);
  return lines.join('\n');
}

function waitLoop(v: string, created: { fn: string; in: number; file: string }, inner: Frame[] = []): Pick<Goroutine, 'frames' | 'createdBy'> {
  const apimachinery = (p: string): string => staging('k8s.io/apimachinery', v, p);
  return {
    frames: [
      ...inner,
      ...(inner.length > 0 ? [{ fn: 'k8s.io/apimachinery/pkg/util/wait.BackoffUntil.func1(0xc000709f40?)', file: `${apimachinery('pkg/util/wait/backoff.go')}:226 +0x33` }] : []),
      { fn: 'k8s.io/apimachinery/pkg/util/wait.BackoffUntil(0xc00091db10, {0x2f8bf00, 0xc000920f90}, 0x1, 0xc00091a690)', file: `${apimachinery('pkg/util/wait/backoff.go')}:${inner.length > 0 ? '227 +0xaf' : '238 +0x12c'}` },
      { fn: 'k8s.io/apimachinery/pkg/util/wait.JitterUntil(0xc00091db10, 0x3b9aca00, 0x0, 0x1, 0xc00091a690)', file: `${apimachinery('pkg/util/wait/backoff.go')}:204 +0x7f` },
      { fn: 'k8s.io/apimachinery/pkg/util/wait.Until(...)', file: `${apimachinery('pkg/util/wait/backoff.go')}:161` },
    ],
    createdBy: created,
  };
}

/** The frames of a unary CRI call from the kubelet down to gRPC waiting for the response headers. */
function criCallFrames(v: string, method: string, clientFile: string, caller: Frame[]): Frame[] {
  const grpc = (p: string): string => `google.golang.org/grpc@v1.67.1/${p}`;
  const lower = method.charAt(0).toLowerCase() + method.slice(1);
  return [
    { fn: 'google.golang.org/grpc/internal/transport.(*Stream).waitOnHeader(0xc0002b6900)', file: `${grpc('internal/transport/transport.go')}:378 +0x7c` },
    { fn: 'google.golang.org/grpc/internal/transport.(*Stream).RecvCompress(...)', file: `${grpc('internal/transport/transport.go')}:393` },
    { fn: 'google.golang.org/grpc.(*csAttempt).recvMsg(0xc0007769c0, {0x29c08e0, 0xc000e13d60}, 0x1000000000000?)', file: `${grpc('stream.go')}:1115 +0x11a` },
    { fn: 'google.golang.org/grpc.(*clientStream).RecvMsg(0xc0002b66c0, {0x29c08e0?, 0xc000e13d60?})', file: `${grpc('stream.go')}:968 +0x155` },
    { fn: 'google.golang.org/grpc.invoke({0x2fbcd08?, 0xc001004600?}, {0x2b824ef?, 0x4?}, {0x29c0660, 0xc00045bed0}, {0x29c08e0, 0xc000e13d60}, 0x0?, {0xc0009bc660, ...})', file: `${grpc('call.go')}:73 +0xcb` },
    { fn: 'google.golang.org/grpc.(*ClientConn).Invoke(0xc00023bc08, {0x2fbcdb0?, 0xc0002e42a0?}, {0x2b824ef?, 0xc00045bed0?}, {0x29c0660?, 0xc00045bed0?}, {0x29c08e0?, 0xc000e13d60?}, {0x0, ...})', file: `${grpc('call.go')}:35 +0x205` },
    { fn: `k8s.io/cri-api/pkg/apis/runtime/v1.(*runtimeServiceClient).${method}(0xc0003ef8d0, {0x2fbcdb0, 0xc0002e42a0}, 0xc00045bed0, {0x0, 0x0, 0x0})`, file: `${staging('k8s.io/cri-api', v, 'pkg/apis/runtime/v1/api.pb.go')}:11139 +0xc5` },
    { fn: `k8s.io/cri-client/pkg.(*remoteRuntimeService).${lower}V1(0xc0009a33b0, {0x2fbcdb0, 0xc0002e42a0}, {0xc000e41b00, 0x40}, 0x0)`, file: `${staging('k8s.io/cri-client', v, 'pkg/remote_runtime.go')}:${clientFile}` },
    { fn: `k8s.io/cri-client/pkg.(*remoteRuntimeService).${method}(0xc0009a33b0, {0x2fbcc20, 0x47cb480}, {0xc000e41b00, 0x40}, 0x0)`, file: `${staging('k8s.io/cri-client', v, 'pkg/remote_runtime.go')}:250 +0x1a5` },
    { fn: `k8s.io/kubernetes/pkg/kubelet/kuberuntime.instrumentedRuntimeService.${method}({{0x2fe1ec0?, 0xc0009a33b0?}}, {0x2fbcc20, 0x47cb480}, {0xc000e41b00, 0x40}, 0x0)`, file: `${k8s(v, 'pkg/kubelet/kuberuntime/instrumented_services.go')}:213 +0xe9` },
    ...caller,
  ];
}

export function goroutineDumpBody(state: KubeletState): string {
  const v = state.kubeletVersion.replace(/[-+].*$/, '');
  const uptimeMin = Math.floor((state.nowS - state.startS) / 60);
  const plegStart = { fn: 'k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Start', in: 150, file: `${k8s(v, 'pkg/kubelet/pleg/generic.go')}:163 +0x170` };
  const dump: Goroutine[] = [
    {
      id: 1448 + (Math.floor(state.nowS) % 97),
      state: 'running',
      frames: [
        { fn: 'runtime/pprof.writeGoroutineStacks({0x2f8dae0, 0xc000414e70})', file: 'runtime/pprof/pprof.go:761 +0x6a' },
        { fn: 'runtime/pprof.writeGoroutine({0x2f8dae0?, 0xc000414e70?}, 0xc001523230?)', file: 'runtime/pprof/pprof.go:750 +0x25' },
        { fn: 'net/http/pprof.handler.ServeHTTP({0xc000e8a011, 0x9}, {0x2fa6b40, 0xc0001e62a0}, 0xc000ae8780)', file: 'net/http/pprof/pprof.go:272 +0x1e5' },
      ],
      createdBy: { fn: 'net/http.(*Server).Serve', in: 213, file: 'net/http/server.go:3360 +0x485' },
    },
    {
      id: 1,
      state: 'chan receive',
      minutes: uptimeMin,
      frames: [
        { fn: 'k8s.io/kubernetes/cmd/kubelet/app.startKubelet(...)', file: `${k8s(v, 'cmd/kubelet/app/server.go')}:1245` },
        { fn: 'main.main()', file: `${k8s(v, 'cmd/kubelet/kubelet.go')}:36 +0x13` },
      ],
    },
    {
      id: 233,
      state: 'select',
      frames: [
        { fn: 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoopIteration(0xc000a38008, {0x2fbcd08, 0xc0003a6f50}, 0xc000a7e7e0, {0x2fc8a10, 0xc000a38008}, 0xc000fa5f20, 0xc000fa5f80, 0xc000b0e360)', file: `${k8s(v, 'pkg/kubelet/kubelet.go')}:2441 +0x12f` },
        { fn: 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoop(0xc000a38008, {0x2fbcd08, 0xc0003a6f50}, 0xc000a7e7e0, {0x2fc8a10, 0xc000a38008})', file: `${k8s(v, 'pkg/kubelet/kubelet.go')}:2410 +0x39c` },
        { fn: 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).Run(0xc000a38008, 0xc000a7e7e0)', file: `${k8s(v, 'pkg/kubelet/kubelet.go')}:1696 +0x9f5` },
      ],
      createdBy: { fn: 'k8s.io/kubernetes/cmd/kubelet/app.startKubelet', in: 1, file: `${k8s(v, 'cmd/kubelet/app/server.go')}:1244 +0xa5` },
    },
  ];

  if (state.condition.kind === 'stuckRelist') {
    const caller: Frame[] = [
      { fn: 'k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).GetPodStatus(0xc0008ae680, {0x2fbcc20, 0x47cb480}, {0xc000b7a330, 0x24}, {0xc000c8e2d0, 0x1c}, {0xc000c8e2f0, 0xb})', file: `${k8s(v, 'pkg/kubelet/kuberuntime/kuberuntime_manager.go')}:1606 +0x2e5` },
      { fn: 'k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).updateCache(0xc0007d5290, {0x2fbcc20, 0x47cb480}, 0xc000b02a80, {0xc000b7a330, 0x24})', file: `${k8s(v, 'pkg/kubelet/pleg/generic.go')}:454 +0x1a5` },
      { fn: 'k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist(0xc0007d5290)', file: `${k8s(v, 'pkg/kubelet/pleg/generic.go')}:317 +0xe48` },
    ];
    // The second PodSandboxStatus of the hung relist: the contract of the demo pins its wait at 2 minutes.
    dump.push({ id: 244, state: 'select', minutes: 2, ...waitLoop(v, plegStart, criCallFrames(v, 'PodSandboxStatus', '262 +0x99', caller)) });
  } else {
    // Sleeping between relists (a failing runtime makes each relist return at once).
    dump.push({ id: 244, state: 'select', ...waitLoop(v, plegStart) });
  }
  dump.push({
    id: 259,
    state: 'IO wait',
    minutes: uptimeMin,
    frames: [
      { fn: 'internal/poll.runtime_pollWait(0x7fe61228a368, 0x72)', file: 'runtime/netpoll.go:351 +0x85' },
      { fn: 'internal/poll.(*FD).Read(0xc000045860, {0xc000b8e000, 0x2000, 0x2000})', file: 'internal/poll/fd_unix.go:165 +0x27a' },
      { fn: 'github.com/euank/go-kmsg-parser/kmsgparser.(*parser).Parse.func1()', file: 'github.com/euank/go-kmsg-parser@v2.0.0+incompatible/kmsgparser/kmsgparser.go:129 +0xb1' },
    ],
    createdBy: { fn: 'github.com/euank/go-kmsg-parser/kmsgparser.(*parser).Parse', in: 239, file: 'github.com/euank/go-kmsg-parser@v2.0.0+incompatible/kmsgparser/kmsgparser.go:123 +0x78' },
  });
  return `${dump.map(render).join('\n\n')}\n\n`;
}
