package io.gantry.studio;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.training.ParameterStore;
import io.gantry.events.ModelGraph;
import io.gantry.events.ModelGraph.Edge;
import io.gantry.events.ModelGraph.Layer;
import io.gantry.runner.GraphBlock;
import io.gantry.studio.service.DjlExport;
import io.gantry.studio.service.GraphValidation;
import io.gantry.studio.service.PytorchExport;
import io.gantry.studio.service.Templates;
import io.gantry.training.model.Datasets;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The exports against the runner: the exported DJL source is compiled here and its {@code build()} block, given the
 * runner's block's parameters, has the same parameter names and shapes and gives the same outputs on the same input;
 * the PyTorch source is at least valid Python ({@code python3 -c "import ast"}). Every layer type is covered.
 */
class ExportTest {

    record Case(String name, ModelGraph graph, String dataset) {
        @Override
        public String toString() {
            return name + " on " + dataset;
        }
    }

    static List<Case> graphs() {
        List<Case> out = new ArrayList<>();
        Templates.all().forEach(t -> out.add(new Case(t.name(), t.graph(), t.dataset())));
        // Concat of two branches, BatchNorm on features, Dropout, Tanh, GELU, Sigmoid.
        out.add(new Case("branches", new ModelGraph(List.of(new Layer("in", "Input"),
                new Layer("a.fc", "Linear", Map.of("units", 16)), new Layer("a-bn", "BatchNorm"),
                new Layer("a_act", "Tanh"), new Layer("drop", "Dropout", Map.of("rate", 0.3)),
                new Layer("b", "Linear", Map.of("units", 8)), new Layer("int", "GELU"), new Layer("cat", "Concat"),
                new Layer("sig", "Sigmoid"), new Layer("out", "Output")),
                List.of(new Edge("in", "a.fc"), new Edge("a.fc", "a-bn"), new Edge("a-bn", "a_act"),
                        new Edge("a_act", "drop"), new Edge("in", "b"), new Edge("b", "int"), new Edge("drop", "cat"),
                        new Edge("int", "cat"), new Edge("cat", "sig"), new Edge("sig", "out"))), "wine"));
        // Strided convolution and average pooling with a stride of its own.
        out.add(new Case("strided", new ModelGraph(List.of(new Layer("in", "Input"),
                new Layer("1conv", "Conv2d", Map.of("filters", 4, "kernel", 3, "stride", 2, "padding", 1)),
                new Layer("avg", "AvgPool2d", Map.of("kernel", 2, "stride", 1)), new Layer("flat", "Flatten"),
                new Layer("out", "Output")),
                List.of(new Edge("in", "1conv"), new Edge("1conv", "avg"), new Edge("avg", "flat"),
                        new Edge("flat", "out"))), "digits"));
        return out;
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("graphs")
    void theExportedDjlBlockIsTheRunnersBlock(Case c) throws Exception {
        String source = new DjlExport(new GraphValidation()).export(c.graph(), c.dataset());
        Block exported = (Block) compile(source).getMethod("build").invoke(null);
        Datasets.Info info = Datasets.info(c.dataset());
        Block runner = new GraphBlock(c.graph(), info);
        long[] dims = new long[info.inputShape().length + 1];
        dims[0] = 3;
        for (int i = 0; i < info.inputShape().length; i++) {
            dims[i + 1] = info.inputShape()[i];
        }
        Shape input = new Shape(dims);
        try (NDManager m = NDManager.newBaseManager()) {
            ai.djl.engine.Engine.getInstance().setRandomSeed(11);
            runner.initialize(m, DataType.FLOAT32, input);
            exported.initialize(m, DataType.FLOAT32, input);
            List<String> names = runner.getParameters().keys();
            assertEquals(names, exported.getParameters().keys(), source);
            List<Parameter> rp = runner.getParameters().values();
            List<Parameter> ep = exported.getParameters().values();
            for (int i = 0; i < rp.size(); i++) {
                assertEquals(rp.get(i).getArray().getShape(), ep.get(i).getArray().getShape(), names.get(i));
            }
            // The same parameters: the runner's, saved and loaded into the exported block (which checks the structure).
            ByteArrayOutputStream saved = new ByteArrayOutputStream();
            runner.saveParameters(new DataOutputStream(saved));
            exported.loadParameters(m, new DataInputStream(new ByteArrayInputStream(saved.toByteArray())));

            float[] x = new float[(int) input.size()];
            Random random = new Random(5);
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) random.nextGaussian();
            }
            NDArray in = m.create(x, input);
            float[] want = runner.forward(new ParameterStore(m, false), new NDList(in), false).singletonOrThrow()
                    .toFloatArray();
            float[] got = exported.forward(new ParameterStore(m, false), new NDList(in), false).singletonOrThrow()
                    .toFloatArray();
            assertEquals(3L * info.classes(), want.length);
            assertArrayEquals(want, got, 1e-6f, c + ":\n" + source);
            assertArrayEquals(runner.getOutputShapes(new Shape[]{input}), exported.getOutputShapes(new Shape[]{input}));
        }
    }

    @ParameterizedTest
    @MethodSource("graphs")
    void thePytorchExportIsPython(Case c) throws Exception {
        String source = new PytorchExport(new GraphValidation()).export(c.graph(), c.dataset());
        assertTrue(source.contains("class GantryModel(nn.Module):"), source);
        Process p = new ProcessBuilder("python3", "-c", "import ast,sys; ast.parse(sys.stdin.read())")
                .redirectErrorStream(true).start();
        p.getOutputStream().write(source.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output + "\n" + source);
    }

    private Class<?> compile(String source) throws Exception {
        Path src = dir.resolve(DjlExport.CLASS_NAME + ".java");
        Files.writeString(src, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, err, err, "-classpath", System.getProperty("java.class.path"), "-d", dir.toString(),
                src.toString());
        assertEquals(0, rc, err + "\n" + source);
        URLClassLoader loader = new URLClassLoader(new URL[]{dir.toUri().toURL()}, getClass().getClassLoader());
        return loader.loadClass(DjlExport.CLASS_NAME);
    }
}
