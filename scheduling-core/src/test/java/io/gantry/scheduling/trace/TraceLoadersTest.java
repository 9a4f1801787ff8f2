package io.gantry.scheduling.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.NodeSpec;
import io.gantry.scheduling.model.Resources;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TraceLoadersTest {

    private static final NodeShape G2 = NodeShape.ALIBABA_G2;

    @Test
    void openbDefaultKeepsEveryScheduledPodAndReportsThePendingOnes() {
        Trace t = TraceFormat.OPENB.loader().load(TraceFormat.OPENB.defaultFile(), G2);
        // 8152 pods, of which 897 were never scheduled (README of the trace).
        assertEquals(8152 - 897, t.jobs().size());
        assertEquals(0, t.badRows().size());
        assertTrue(t.notes().get(0).startsWith("897 "));
        JobRequest first = t.jobs().get(0);
        assertEquals("openb-pod-0000", first.id());
        assertEquals(new Resources(1000, 12000, 16384), first.perTask());
        assertEquals(12537496.0, first.trueDurationS());
        // The README's "5 pods that exceed one node" of the default file include Pending ones; on 13 G2 nodes
        // every unfit pod is reported by the shaper rather than dropped silently.
        WorkloadShaper.Shaped s = WorkloadShaper.shape(t.jobs(), G2.nodes(13), Double.NaN, 0, 1);
        assertEquals(t.jobs().size(), s.jobs().size() + s.unfit().size());
        assertTrue(s.unfit().size() <= 5);
    }

    @Test
    void openbNodeListHas549NodesOfTheG2Shape() {
        List<BadRow> bad = new ArrayList<>();
        List<NodeSpec> nodes = OpenbNodeListLoader.load(
                SharedTraces.tracesDir().resolve("alibaba-gpu-v2023-openb/openb_node_list_gpu_node.csv"), bad);
        assertEquals(1213, nodes.size());
        assertEquals(0, bad.size());
        Map<Resources, Long> byShape = nodes.stream().collect(Collectors.groupingBy(NodeSpec::capacity, Collectors.counting()));
        assertEquals(549L, byShape.get(G2.capacity()));
    }

    @Test
    void phillyTurnsBigJobsIntoGangsOfWholeNodes() {
        Trace t = TraceFormat.PHILLY.loader().load(TraceFormat.PHILLY.defaultFile(), G2);
        assertEquals(52849, t.jobs().size());
        assertEquals(0, t.badRows().size());
        Map<Double, List<JobRequest>> byGpus = t.jobs().stream().collect(Collectors.groupingBy(JobRequest::gpus));
        JobRequest sixteen = byGpus.get(16.0).get(0);
        assertEquals(2, sixteen.tasks());
        assertEquals(8000, sixteen.perTask().gpuMilli());
        JobRequest twelve = byGpus.get(12.0).get(0);
        assertEquals(2, twelve.tasks());
        assertEquals(6000, twelve.perTask().gpuMilli());
        // The README counts 15 VCs over the whole Philly summary; the Sept–Oct rows use 12 of them.
        assertEquals(12, t.jobs().stream().map(JobRequest::user).distinct().count());
        assertEquals(0.0, t.jobs().stream().mapToDouble(JobRequest::submitTime).min().orElseThrow());
    }

    @Test
    void polluxDurationsComeFromTheMeasuredProfiles() {
        Trace t = TraceFormat.POLLUX.loader().load(TraceFormat.POLLUX.defaultFile(), G2);
        assertEquals(160, t.jobs().size());
        assertEquals(0, t.badRows().size(), t.badRows().toString());
        Map<String, Double> meanByApp = t.jobs().stream().collect(Collectors.groupingBy(JobRequest::user,
                Collectors.averagingDouble(JobRequest::trueDurationS)));
        for (JobRequest j : t.jobs()) {
            assertTrue(j.trueDurationS() > PolluxAppProfile.RESCALE_DELAY_S, j.id());
        }
        // Pollux assigned models by Philly GPU-time bucket: ImageNet is the >100 GPU-hour class, CIFAR-10 the <1.
        assertTrue(meanByApp.get("imagenet") * 4 > meanByApp.get("cifar10") * 1,
                "imagenet " + meanByApp.get("imagenet") + " vs cifar10 " + meanByApp.get("cifar10"));
        assertTrue(meanByApp.get("imagenet") > 3600, "ImageNet to 90 epochs takes hours");
    }

    @Test
    void polluxPlacementsAreNamedByTheirSmallestRotation() {
        assertEquals("24", PolluxAppProfile.canonicalId(new int[] {4, 2}));
        assertEquals("1222", PolluxAppProfile.canonicalId(new int[] {2, 2, 1, 2}));
        assertEquals(List.of(4, 4, 2), java.util.Arrays.stream(PolluxAppProfile.packedPlacement(10)).boxed().toList());
    }

    @Test
    void pai2020FormatReadsTheHandWrittenSampleAndReportsTheBadRow() throws URISyntaxException {
        Path file = Path.of(getClass().getResource("/pai2020/hand-written-pai2020-format-sample.csv").toURI());
        Trace t = TraceFormat.PAI2020.loader().load(file, G2);
        assertEquals(3, t.jobs().size());
        assertEquals(1, t.badRows().size());
        BadRow bad = t.badRows().get(0);
        assertEquals(4, bad.line());
        assertTrue(bad.reason().contains("num_gpu"), bad.reason());
        Map<String, JobRequest> byId = t.jobs().stream().collect(Collectors.toMap(JobRequest::id, Function.identity()));
        assertEquals(250, byId.get("hw-job-1").perTask().gpuMilli());
        assertEquals(0.0, byId.get("hw-job-1").submitTime());
        assertEquals(2, byId.get("hw-job-2").tasks());
        assertEquals(1000, byId.get("hw-job-2").perTask().gpuMilli());
        assertEquals(6000, byId.get("hw-job-2").perTask().cpuMilli());
        assertEquals("carol", byId.get("hw-job-4").user());
        assertEquals(0, byId.get("hw-job-4").perTask().gpuMilli());
    }

    @Test
    void loadScalingHitsTheTargetAndLeavesDurationsAlone() {
        Trace t = TraceFormat.PHILLY.loader().load(TraceFormat.PHILLY.defaultFile(), G2);
        List<NodeSpec> cluster = G2.nodes(13);
        WorkloadShaper.Shaped s = WorkloadShaper.shape(t.jobs(), cluster, 0.8, 2000, 5);
        assertEquals(2000, s.jobs().size());
        assertEquals(0.8, WorkloadShaper.offeredLoad(s.jobs(), 104), 1e-9);
        assertEquals(0.0, s.jobs().get(0).submitTime());
        WorkloadShaper.Shaped again = WorkloadShaper.shape(t.jobs(), cluster, 0.8, 2000, 5);
        assertEquals(s.jobs(), again.jobs());
        WorkloadShaper.Shaped all = WorkloadShaper.shape(t.jobs(), cluster, Double.NaN, 0, 1);
        assertEquals(0, all.unfit().size(), "Philly's largest jobs are 32 GPUs, which fit 13 × 8");
    }

    @Test
    void repeatConcatenatesRealCopiesShiftedBySpanWithSuffixedIds() {
        Trace t = TraceFormat.PHILLY.loader().load(TraceFormat.PHILLY.defaultFile(), G2);
        List<NodeSpec> cluster = G2.nodes(13);
        List<JobRequest> once = WorkloadShaper.shape(t.jobs(), cluster, Double.NaN, 0, 1).jobs();
        List<JobRequest> thrice = WorkloadShaper.shape(t.jobs(), cluster, Double.NaN, 0, 3, 1).jobs();
        int n = once.size();
        assertEquals(3 * n, thrice.size());
        assertEquals(once, thrice.subList(0, n), "the first copy is the trace itself");
        double span = once.get(n - 1).submitTime() - once.get(0).submitTime();
        double period = span + span / (n - 1);
        for (int k = 1; k < 3; k++) {
            for (int i = 0; i < n; i += 997) {
                JobRequest a = once.get(i);
                JobRequest b = thrice.get(k * n + i);
                assertEquals(a.id() + "~r" + k, b.id());
                assertEquals(a.submitTime() + k * period, b.submitTime(), 1e-6);
                assertEquals(a.trueDurationS(), b.trueDurationS());
                assertEquals(a.perTask(), b.perTask());
                assertEquals(a.tasks(), b.tasks());
                assertEquals(a.user(), b.user());
            }
        }
        assertEquals(3 * n, thrice.stream().map(JobRequest::id).distinct().count(), "ids stay unique");
        // Same ρ: three copies carry three times the work over three times the span (plus two gaps).
        double rho1 = WorkloadShaper.offeredLoad(once, 104);
        assertEquals(rho1, WorkloadShaper.offeredLoad(thrice, 104), rho1 * 1e-3);
    }
}
