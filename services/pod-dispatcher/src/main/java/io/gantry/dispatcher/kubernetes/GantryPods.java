package io.gantry.dispatcher.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.gantry.dispatcher.config.DispatcherConfig;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How Gantry recognises, names and builds the pods of its jobs on Kubernetes.
 *
 * <p>A pod is Gantry's when its {@code spec.schedulerName} is Gantry's. Its job is the {@code gantry.io/job-id}
 * annotation of pods Gantry created; a pod someone else created belongs to the job
 * {@code <namespace>/<gantry.io/job label, or the pod name>}: the slash keeps those ids apart from submitted
 * jobs, and the id follows from the pod alone, so a restarted dispatcher finds the same jobs. A gang made of
 * foreign pods gives its size in the {@code gantry.io/tasks} annotation (1 when absent).
 */
public final class GantryPods {

    public static final String JOB_LABEL = "gantry.io/job";
    public static final String USER_LABEL = "gantry.io/user";
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY = "gantry-pod-dispatcher";
    public static final String JOB_ID_ANNOTATION = "gantry.io/job-id";
    public static final String USER_ANNOTATION = "gantry.io/user";
    public static final String TASK_ANNOTATION = "gantry.io/task";
    public static final String TASKS_ANNOTATION = "gantry.io/tasks";
    /** Which start of its job a pod serves: absent on a job's first pods, {@code k} on the pods of its k-th start. */
    public static final String ATTEMPT_ANNOTATION = "gantry.io/attempt";
    public static final String GPU = "nvidia.com/gpu";
    /**
     * The GPU devices of its node a pod was placed on, when the scheduler places per device
     * ({@code SchedulingDecision.gpuDevices}): comma-separated indices, e.g. {@code 3} or {@code 2,5}. Written before
     * the pod is bound, as Alibaba's GPU-share scheduler extender writes {@code ALIYUN_COM_GPU_MEM_IDX} before its
     * Binding (AliyunContainerService/gpushare-scheduler-extender, {@code pkg/utils/const.go}), so a device plugin on
     * the node can hand the container exactly those devices.
     */
    public static final String GPU_DEVICES_ANNOTATION = "gantry.io/gpu-devices";
    /**
     * What the pod takes of each of its {@link #GPU_DEVICES_ANNOTATION} devices, in thousandths of a card: its share
     * (1..999) when it shares one GPU, 1000 for whole GPUs (the trace's {@code gpu_milli}; the extender's
     * {@code ALIYUN_COM_GPU_MEM_POD} counts GPU memory instead).
     */
    public static final String GPU_MILLI_ANNOTATION = "gantry.io/gpu-milli";
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);

    private GantryPods() {
    }

    public static boolean isGantrys(Pod pod, String schedulerName) {
        return pod.getSpec() != null && schedulerName.equals(pod.getSpec().getSchedulerName());
    }

    public static boolean createdByGantry(Pod pod) {
        return MANAGED_BY.equals(labels(pod).get(MANAGED_BY_LABEL)) && annotations(pod).containsKey(JOB_ID_ANNOTATION);
    }

    public static String jobIdOf(Pod pod) {
        if (createdByGantry(pod)) {
            return annotations(pod).get(JOB_ID_ANNOTATION);
        }
        String job = labels(pod).get(JOB_LABEL);
        return pod.getMetadata().getNamespace() + "/" + (job == null || job.isBlank() ? pod.getMetadata().getName() : job);
    }

    /** Jobs whose pods someone else made: Gantry never creates pods for them. */
    public static boolean isForeignJobId(String jobId) {
        return jobId.indexOf('/') >= 0;
    }

    public static String userOf(Pod pod) {
        String user = annotations(pod).get(USER_ANNOTATION);
        if (user == null) {
            user = labels(pod).get(USER_LABEL);
        }
        return user == null || user.isBlank() ? pod.getMetadata().getNamespace() : user;
    }

    /** How many pods the job has in all: the {@code gantry.io/tasks} annotation, else 1. */
    public static int tasksOf(Pod pod) {
        return positiveAnnotation(pod, TASKS_ANNOTATION);
    }

    /** Which start of its job the pod serves ({@value #ATTEMPT_ANNOTATION}); 1 when absent or unreadable. */
    public static int attemptOf(Pod pod) {
        return positiveAnnotation(pod, ATTEMPT_ANNOTATION);
    }

    private static int positiveAnnotation(Pod pod, String name) {
        String value = annotations(pod).get(name);
        try {
            return value == null ? 1 : Math.max(1, Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** Task order inside a job: the {@code gantry.io/task} annotation, then the pod name. */
    public static final Comparator<Pod> TASK_ORDER = Comparator
            .comparingInt((Pod p) -> {
                String task = annotations(p).get(TASK_ANNOTATION);
                try {
                    return task == null ? Integer.MAX_VALUE : Integer.parseInt(task.trim());
                } catch (NumberFormatException e) {
                    return Integer.MAX_VALUE;
                }
            })
            .thenComparing(p -> p.getMetadata().getName());

    public static boolean isBound(Pod pod) {
        return pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
    }

    public static boolean isTerminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** What one pod requests: the sum over its containers (init containers are not counted; they run first). */
    public static ResourceAmounts requestsOf(Pod pod) {
        BigDecimal cpu = BigDecimal.ZERO;
        BigDecimal memory = BigDecimal.ZERO;
        BigDecimal gpu = BigDecimal.ZERO;
        for (Container c : pod.getSpec().getContainers()) {
            Map<String, Quantity> requests = c.getResources() == null ? null : c.getResources().getRequests();
            Map<String, Quantity> limits = c.getResources() == null ? null : c.getResources().getLimits();
            cpu = cpu.add(amount(requests, limits, "cpu"));
            memory = memory.add(amount(requests, limits, "memory"));
            gpu = gpu.add(amount(requests, limits, GPU));
        }
        return amounts(cpu, memory, gpu);
    }

    /** cpu in cores, memory in bytes, GPUs in cards, as Kubernetes counts them, in Gantry's units. */
    public static ResourceAmounts amounts(BigDecimal cpuCores, BigDecimal memoryBytes, BigDecimal gpus) {
        return new ResourceAmounts(
                gpus.multiply(THOUSAND).setScale(0, RoundingMode.CEILING).intValueExact(),
                cpuCores.multiply(THOUSAND).setScale(0, RoundingMode.CEILING).intValueExact(),
                memoryBytes.divide(MIB, 0, RoundingMode.CEILING).intValueExact());
    }

    /** The amount of {@code resource} a container asks for; a limit alone counts as the request, as Kubernetes does. */
    private static BigDecimal amount(Map<String, Quantity> requests, Map<String, Quantity> limits, String resource) {
        Quantity q = requests == null ? null : requests.get(resource);
        if (q == null && limits != null) {
            q = limits.get(resource);
        }
        return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
    }

    public static BigDecimal quantity(Map<String, Quantity> resources, String resource) {
        Quantity q = resources == null ? null : resources.get(resource);
        return q == null ? BigDecimal.ZERO : q.getNumericalAmount();
    }

    /** The name of task {@code task} of a job Gantry creates pods for: a DNS label, unique per job id. */
    public static String podName(String jobId, int task) {
        return dnsLabel(jobId, 50) + "-" + task;
    }

    /**
     * The same for the job's {@code attempt}-th start: a resumed job gets new pods, named apart from the ones of
     * the start it was stopped from, which may still be terminating.
     */
    public static String podName(String jobId, int task, int attempt) {
        return attempt <= 1 ? podName(jobId, task) : podName(jobId, task) + "-a" + attempt;
    }

    /** A label value for {@code value}: the value itself when it is one, else a readable prefix and a hash. */
    public static String labelValue(String value) {
        if (value.matches("[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?")) {
            return value;
        }
        String readable = value.replaceAll("[^A-Za-z0-9_.-]", "-").replaceAll("^[^A-Za-z0-9]+", "");
        readable = readable.substring(0, Math.min(readable.length(), 50)).replaceAll("[^A-Za-z0-9]+$", "");
        return (readable.isEmpty() ? "job" : readable) + "-" + hash(value);
    }

    private static String dnsLabel(String value, int max) {
        if (value.length() <= max && value.matches("[a-z0-9]([a-z0-9-]*[a-z0-9])?")) {
            return value;
        }
        // Lower-casing and replacing can make two ids alike; the hash of the exact id keeps them apart.
        String readable = value.toLowerCase().replaceAll("[^a-z0-9-]", "-").replaceAll("^-+", "");
        readable = readable.substring(0, Math.min(readable.length(), max - 9)).replaceAll("-+$", "");
        return (readable.isEmpty() ? "job" : readable) + "-" + hash(value);
    }

    private static String hash(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a pod Gantry creates for a job needs to know. */
    public record JobSpec(String jobId, String user, int tasks, ResourceAmounts perTask, String model, Integer batchSize,
                          Integer epochs, Double durationS, TrainingSpec training) {

        /** A trace job (no training spec). */
        public JobSpec(String jobId, String user, int tasks, ResourceAmounts perTask, String model, Integer batchSize,
                       Integer epochs, Double durationS) {
            this(jobId, user, tasks, perTask, model, batchSize, epochs, durationS, null);
        }

        /** The same job with {@code durationS} left to run (a resumed start). */
        public JobSpec withDurationS(Double left) {
            return new JobSpec(jobId, user, tasks, perTask, model, batchSize, epochs, left, training);
        }

        /** The same job as decided: the decision's requests and gang size, the tuned spec when known. */
        public JobSpec asDecided(int decidedTasks, ResourceAmounts decidedPerTask, TrainingSpec tuned) {
            return new JobSpec(jobId, user, decidedTasks, decidedPerTask, model, batchSize, epochs, durationS,
                    tuned != null ? tuned : training);
        }
    }

    /**
     * Task {@code task} of {@code job}'s {@code attempt}-th start, for a trace job the stand-in
     * ({@code trace-job-image}, {@code trace-job-command}; a training job's pod is {@link TrainingPods}'s) (see {@link #podName(String, int, int)}): unbound, {@code schedulerName} Gantry's, never restarted (a failed task fails
     * the job). Kubernetes counts GPUs in whole cards, so a fraction is rounded up; memory and GPUs are limited to
     * the request, so a pod that outgrows its memory is OOM-killed and the job says so.
     */
    public static Pod build(JobSpec job, int task, int attempt, DispatcherConfig.Kubernetes config) {
        ResourceAmounts r = job.perTask();
        Map<String, Quantity> requests = new LinkedHashMap<>();
        requests.put("cpu", new Quantity(r.cpuMilli() + "m"));
        requests.put("memory", new Quantity(r.memoryMib() + "Mi"));
        Map<String, Quantity> limits = new LinkedHashMap<>();
        limits.put("memory", new Quantity(r.memoryMib() + "Mi"));
        if (r.gpuMilli() > 0) {
            Quantity gpus = new Quantity(String.valueOf((r.gpuMilli() + 999) / 1000));
            requests.put(GPU, gpus);
            limits.put(GPU, gpus);
        }
        List<EnvVar> env = new ArrayList<>();
        env.add(new EnvVar("GANTRY_JOB_ID", job.jobId(), null));
        env.add(new EnvVar("GANTRY_USER", job.user(), null));
        env.add(new EnvVar("GANTRY_TASK", String.valueOf(task), null));
        env.add(new EnvVar("GANTRY_TASKS", String.valueOf(job.tasks()), null));
        if (job.model() != null) {
            env.add(new EnvVar("GANTRY_MODEL", job.model(), null));
        }
        if (job.batchSize() != null) {
            env.add(new EnvVar("GANTRY_BATCH_SIZE", job.batchSize().toString(), null));
        }
        if (job.epochs() != null) {
            env.add(new EnvVar("GANTRY_EPOCHS", job.epochs().toString(), null));
        }
        if (job.durationS() != null) {
            env.add(new EnvVar("GANTRY_DURATION_S", String.valueOf(Math.round(job.durationS())), null));
        }
        Map<String, String> attemptAnnotation = attempt <= 1 ? Map.of() : Map.of(ATTEMPT_ANNOTATION, String.valueOf(attempt));
        return new PodBuilder()
                .withNewMetadata()
                    .withName(podName(job.jobId(), task, attempt))
                    .withNamespace(config.jobNamespace())
                    .addToLabels(JOB_LABEL, labelValue(job.jobId()))
                    .addToLabels(USER_LABEL, labelValue(job.user()))
                    .addToLabels(MANAGED_BY_LABEL, MANAGED_BY)
                    .addToAnnotations(JOB_ID_ANNOTATION, job.jobId())
                    .addToAnnotations(USER_ANNOTATION, job.user())
                    .addToAnnotations(TASK_ANNOTATION, String.valueOf(task))
                    .addToAnnotations(TASKS_ANNOTATION, String.valueOf(job.tasks()))
                    .addToAnnotations(attemptAnnotation)
                .endMetadata()
                .withNewSpec()
                    .withSchedulerName(config.schedulerName())
                    .withRestartPolicy("Never")
                    .withServiceAccountName(config.jobServiceAccount().orElse(null))
                    .addNewContainer()
                        .withName("main")
                        .withImage(config.traceJobImage())
                        .withCommand(config.traceJobCommand())
                        .withEnv(env)
                        .withResources(new ResourceRequirementsBuilder().withRequests(requests).withLimits(limits).build())
                    .endContainer()
                .endSpec()
                .build();
    }

    /** The device annotations of a task placed on {@code devices}, taking {@code perTask} GPU-milli in all. */
    public static Map<String, String> gpuDeviceAnnotations(List<Integer> devices, long perTaskGpuMilli) {
        return Map.of(GPU_DEVICES_ANNOTATION, String.join(",", devices.stream().map(String::valueOf).toList()),
                GPU_MILLI_ANNOTATION, String.valueOf(Math.min(perTaskGpuMilli, 1000)));
    }

    private static Map<String, String> labels(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    private static Map<String, String> annotations(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }
}
