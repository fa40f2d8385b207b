// The subset of the CRI `runtime.v1` API that PLEG Doctor reads, written by hand. Field numbers and enum
// values follow the public k8s.io/cri-api runtime/v1 definition (checked field by field); a wrong number
// would silently decode garbage, which is what test/unit/infra/cri/protoCodec.test.ts guards against with known bytes.
// Kept as a TypeScript string (parsed by protobufjs at runtime) so that the same source works in the
// esbuild bundles and under vitest without a loader. Only read-only RPCs (and the GetContainerEvents
// stream) are declared here; the test-support pod creator adds the mutating ones to its own root
// (test/support/criMutationsProto.ts).

export const RUNTIME_V1_PROTO = `
syntax = "proto3";
package runtime.v1;

service RuntimeService {
  rpc Version(VersionRequest) returns (VersionResponse) {}
  rpc PodSandboxStatus(PodSandboxStatusRequest) returns (PodSandboxStatusResponse) {}
  rpc ListPodSandbox(ListPodSandboxRequest) returns (ListPodSandboxResponse) {}
  rpc ListContainers(ListContainersRequest) returns (ListContainersResponse) {}
  rpc ContainerStatus(ContainerStatusRequest) returns (ContainerStatusResponse) {}
  rpc ListContainerStats(ListContainerStatsRequest) returns (ListContainerStatsResponse) {}
  rpc Status(StatusRequest) returns (StatusResponse) {}
  rpc GetContainerEvents(GetEventsRequest) returns (stream ContainerEventResponse) {}
}

message VersionRequest { string version = 1; }
message VersionResponse {
  string version = 1;
  string runtime_name = 2;
  string runtime_version = 3;
  string runtime_api_version = 4;
}

enum NamespaceMode { POD = 0; CONTAINER = 1; NODE = 2; TARGET = 3; }
message NamespaceOption {
  NamespaceMode network = 1;
  NamespaceMode pid = 2;
  NamespaceMode ipc = 3;
  string target_id = 4;
}

message PodSandboxMetadata {
  string name = 1;
  string uid = 2;
  string namespace = 3;
  uint32 attempt = 4;
}

enum PodSandboxState { SANDBOX_READY = 0; SANDBOX_NOTREADY = 1; }
message PodSandboxStateValue { PodSandboxState state = 1; }
message PodSandboxFilter {
  string id = 1;
  PodSandboxStateValue state = 2;
  map<string, string> label_selector = 3;
}
message ListPodSandboxRequest { PodSandboxFilter filter = 1; }
message PodSandbox {
  string id = 1;
  PodSandboxMetadata metadata = 2;
  PodSandboxState state = 3;
  int64 created_at = 4;
  map<string, string> labels = 5;
  map<string, string> annotations = 6;
  string runtime_handler = 7;
}
message ListPodSandboxResponse { repeated PodSandbox items = 1; }

message PodSandboxStatusRequest {
  string pod_sandbox_id = 1;
  bool verbose = 2;
}
message PodIP { string ip = 1; }
message PodSandboxNetworkStatus {
  string ip = 1;
  repeated PodIP additional_ips = 2;
}
message Namespace { NamespaceOption options = 2; }
message LinuxPodSandboxStatus { Namespace namespaces = 1; }
message PodSandboxStatus {
  string id = 1;
  PodSandboxMetadata metadata = 2;
  PodSandboxState state = 3;
  int64 created_at = 4;
  PodSandboxNetworkStatus network = 5;
  LinuxPodSandboxStatus linux = 6;
  map<string, string> labels = 7;
  map<string, string> annotations = 8;
  string runtime_handler = 9;
}
message PodSandboxStatusResponse {
  PodSandboxStatus status = 1;
  map<string, string> info = 2;
  repeated ContainerStatus containers_statuses = 3;
  int64 timestamp = 4;
}

message ContainerMetadata {
  string name = 1;
  uint32 attempt = 2;
}
message ImageSpec {
  string image = 1;
  map<string, string> annotations = 2;
  string user_specified_image = 18;
  string runtime_handler = 19;
}

enum ContainerState {
  CONTAINER_CREATED = 0;
  CONTAINER_RUNNING = 1;
  CONTAINER_EXITED = 2;
  CONTAINER_UNKNOWN = 3;
}
message ContainerStateValue { ContainerState state = 1; }
message ContainerFilter {
  string id = 1;
  ContainerStateValue state = 2;
  string pod_sandbox_id = 3;
  map<string, string> label_selector = 4;
}
message ListContainersRequest { ContainerFilter filter = 1; }
message Container {
  string id = 1;
  string pod_sandbox_id = 2;
  ContainerMetadata metadata = 3;
  ImageSpec image = 4;
  string image_ref = 5;
  ContainerState state = 6;
  int64 created_at = 7;
  map<string, string> labels = 8;
  map<string, string> annotations = 9;
  string image_id = 10;
}
message ListContainersResponse { repeated Container containers = 1; }

message ContainerStatusRequest {
  string container_id = 1;
  bool verbose = 2;
}
message ContainerStatus {
  string id = 1;
  ContainerMetadata metadata = 2;
  ContainerState state = 3;
  int64 created_at = 4;
  int64 started_at = 5;
  int64 finished_at = 6;
  int32 exit_code = 7;
  ImageSpec image = 8;
  string image_ref = 9;
  string reason = 10;
  string message = 11;
  map<string, string> labels = 12;
  map<string, string> annotations = 13;
  string log_path = 15;
  string image_id = 17;
}
message ContainerStatusResponse {
  ContainerStatus status = 1;
  map<string, string> info = 2;
}

message UInt64Value { uint64 value = 1; }
message ContainerStatsFilter {
  string id = 1;
  string pod_sandbox_id = 2;
  map<string, string> label_selector = 3;
}
message ListContainerStatsRequest { ContainerStatsFilter filter = 1; }
message ContainerAttributes {
  string id = 1;
  ContainerMetadata metadata = 2;
  map<string, string> labels = 3;
  map<string, string> annotations = 4;
}
message CpuUsage {
  int64 timestamp = 1;
  UInt64Value usage_core_nano_seconds = 2;
  UInt64Value usage_nano_cores = 3;
}
message MemoryUsage {
  int64 timestamp = 1;
  UInt64Value working_set_bytes = 2;
  UInt64Value available_bytes = 3;
  UInt64Value usage_bytes = 4;
  UInt64Value rss_bytes = 5;
  UInt64Value page_faults = 6;
  UInt64Value major_page_faults = 7;
}
message ContainerStats {
  ContainerAttributes attributes = 1;
  CpuUsage cpu = 2;
  MemoryUsage memory = 3;
}
message ListContainerStatsResponse { repeated ContainerStats stats = 1; }

message RuntimeCondition {
  string type = 1;
  bool status = 2;
  string reason = 3;
  string message = 4;
}
message RuntimeStatus { repeated RuntimeCondition conditions = 1; }
message StatusRequest { bool verbose = 1; }
message StatusResponse {
  RuntimeStatus status = 1;
  map<string, string> info = 2;
}

message GetEventsRequest {}
enum ContainerEventType {
  CONTAINER_CREATED_EVENT = 0;
  CONTAINER_STARTED_EVENT = 1;
  CONTAINER_STOPPED_EVENT = 2;
  CONTAINER_DELETED_EVENT = 3;
}
message ContainerEventResponse {
  string container_id = 1;
  ContainerEventType container_event_type = 2;
  int64 created_at = 3;
  PodSandboxStatus pod_sandbox_status = 4;
  repeated ContainerStatus containers_statuses = 5;
}
`;
