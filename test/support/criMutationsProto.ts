// Test support only: the mutating CRI RPCs used to create and remove real pods on the node stack. They are
// added to a test-only protobufjs root, so the product's client (src/infra/cri) stays read-only.
// Field numbers follow k8s.io/cri-api runtime/v1.

export const RUNTIME_V1_MUTATIONS_PROTO = `
syntax = "proto3";
package runtime.v1;

// Same wire service (/runtime.v1.RuntimeService/...); a distinct name because protobufjs cannot merge services.
service RuntimeServiceMutations {
  rpc RunPodSandbox(RunPodSandboxRequest) returns (RunPodSandboxResponse) {}
  rpc StopPodSandbox(StopPodSandboxRequest) returns (StopPodSandboxResponse) {}
  rpc RemovePodSandbox(RemovePodSandboxRequest) returns (RemovePodSandboxResponse) {}
  rpc CreateContainer(CreateContainerRequest) returns (CreateContainerResponse) {}
  rpc StartContainer(StartContainerRequest) returns (StartContainerResponse) {}
  rpc StopContainer(StopContainerRequest) returns (StopContainerResponse) {}
  rpc RemoveContainer(RemoveContainerRequest) returns (RemoveContainerResponse) {}
}

message LinuxSandboxSecurityContext { NamespaceOption namespace_options = 1; }
message LinuxPodSandboxConfig {
  string cgroup_parent = 1;
  LinuxSandboxSecurityContext security_context = 2;
}
message PodSandboxConfig {
  PodSandboxMetadata metadata = 1;
  string hostname = 2;
  string log_directory = 3;
  map<string, string> labels = 6;
  map<string, string> annotations = 7;
  LinuxPodSandboxConfig linux = 8;
}
message RunPodSandboxRequest {
  PodSandboxConfig config = 1;
  string runtime_handler = 2;
}
message RunPodSandboxResponse { string pod_sandbox_id = 1; }
message StopPodSandboxRequest { string pod_sandbox_id = 1; }
message StopPodSandboxResponse {}
message RemovePodSandboxRequest { string pod_sandbox_id = 1; }
message RemovePodSandboxResponse {}

message LinuxContainerResources { int64 memory_limit_in_bytes = 4; }
message LinuxContainerConfig { LinuxContainerResources resources = 1; }
message ContainerConfig {
  ContainerMetadata metadata = 1;
  ImageSpec image = 2;
  repeated string command = 3;
  repeated string args = 4;
  map<string, string> labels = 9;
  map<string, string> annotations = 10;
  string log_path = 11;
  LinuxContainerConfig linux = 15;
}
message CreateContainerRequest {
  string pod_sandbox_id = 1;
  ContainerConfig config = 2;
  PodSandboxConfig sandbox_config = 3;
}
message CreateContainerResponse { string container_id = 1; }
message StartContainerRequest { string container_id = 1; }
message StartContainerResponse {}
message StopContainerRequest {
  string container_id = 1;
  int64 timeout = 2;
}
message StopContainerResponse {}
message RemoveContainerRequest { string container_id = 1; }
message RemoveContainerResponse {}
`;
