package io.gantry.studio;

import static io.gantry.studio.TestGraphs.edge;
import static io.gantry.studio.TestGraphs.graph;
import static io.gantry.studio.TestGraphs.layer;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The catalogue, live validation, and the 400/401 answers: every kind of invalid graph is refused by {@code POST
 * /api/runs} with the node id and the reason, and reported on its node by {@code POST /api/graphs/validate}.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class ValidationApiTest {

    private static ValidatableResponse submit(Object graph, String dataset) {
        return given().header("X-Gantry-User", "alice").contentType(ContentType.JSON)
                .body(Map.of("graph", graph, "dataset", dataset, "epochs", 1)).post("/api/runs").then();
    }

    private static ValidatableResponse validate(Object graph, String dataset) {
        return given().header("X-Gantry-User", "alice").contentType(ContentType.JSON)
                .body(Map.of("graph", graph, "dataset", dataset)).post("/api/graphs/validate").then();
    }

    @Test
    void theCatalogueComesFromTheContractAndTheDatasets() {
        given().get("/api/catalog").then().statusCode(200)
                .body("layers.find { it.type == 'Conv2d' }.params.find { it.name == 'kernel' }.max", equalTo(64f))
                .body("layers.find { it.type == 'Add' }.inputs.min", equalTo(2))
                .body("datasets.find { it.name == 'digits' }.inputShape", equalTo(List.of(1, 8, 8)))
                .body("datasets.find { it.name == 'digits' }.samples", equalTo(1797))
                .body("templates.name", equalTo(List.of("mlp", "lenet", "residual")))
                .body("optimizers", hasItem("adam"));
    }

    @Test
    void everyTemplateIsValidOnItsDataset() {
        List<Map<String, Object>> templates = given().get("/api/catalog").then().extract().path("templates");
        for (Map<String, Object> t : templates) {
            validate(t.get("graph"), (String) t.get("dataset")).statusCode(200).body("valid", equalTo(true));
        }
    }

    @Test
    void validationGivesEveryNodeItsShapeOrError() {
        Object g = graph(List.of(layer("in", "Input"), layer("fc", "Linear", Map.of("units", 4)),
                layer("out", "Output")), List.of(edge("in", "fc"), edge("fc", "out")));
        validate(g, "digits").statusCode(200).body("valid", equalTo(false))
                .body("nodes.in.shape", equalTo(List.of(1, 8, 8)))
                .body("nodes.fc.error", containsString("needs a flat input [features], got [1, 8, 8]"))
                .body("nodes.out.error", containsString("its input 'fc' has an error"))
                .body("errors[0].nodeId", equalTo("fc"));
        validate(TestGraphs.smallCnn(), "digits").statusCode(200).body("valid", equalTo(true))
                .body("nodes.pool.shape", equalTo(List.of(8, 4, 4))).body("nodes.out.shape", equalTo(List.of(10)));
    }

    @Test
    void aShapeMismatchIs400NamingTheNodeAndBothShapes() {
        Object g = graph(List.of(layer("in", "Input"), layer("a", "Linear", Map.of("units", 16)),
                        layer("b", "Linear", Map.of("units", 8)), layer("sum", "Add"), layer("out", "Output")),
                List.of(edge("in", "a"), edge("in", "b"), edge("a", "sum"), edge("b", "sum"), edge("sum", "out")));
        submit(g, "iris").statusCode(400).body("nodeId", equalTo("sum")).body("field", equalTo("graph.layers[3]"))
                .body("reason", containsString("[16] and [8]"));
    }

    @Test
    void aCycleIs400NamingTheNodesOnIt() {
        Object g = graph(List.of(layer("in", "Input"), layer("a", "ReLU"), layer("b", "Add"), layer("out", "Output")),
                List.of(edge("in", "b"), edge("b", "a"), edge("a", "b"), edge("a", "out")));
        submit(g, "iris").statusCode(400).body("errors.nodeId", hasItem("a")).body("errors.nodeId", hasItem("b"))
                .body("errors.find { it.nodeId == 'a' }.reason", containsString("is on a cycle"));
    }

    @Test
    void anUnconnectedInputIs400NamingTheNode() {
        Object g = graph(List.of(layer("in", "Input"), layer("fc", "Linear", Map.of("units", 8)),
                layer("loose", "ReLU"), layer("out", "Output")), List.of(edge("in", "fc"), edge("fc", "out")));
        submit(g, "iris").statusCode(400).body("nodeId", equalTo("loose"))
                .body("reason", containsString("takes 1 input(s), has 0"));
    }

    @Test
    void aMissingOutputIs400ForTheGraph() {
        Object g = graph(List.of(layer("in", "Input"), layer("fc", "Linear", Map.of("units", 3))),
                List.of(edge("in", "fc")));
        submit(g, "iris").statusCode(400).body("errors.reason", hasItem(containsString("exactly one Output layer, has 0")))
                .body("errors.find { it.reason.contains('Output layer') }.nodeId", nullValue());
    }

    @Test
    void aParameterOutOfRangeIs400NamingTheNodeAndTheParameter() {
        Object g = graph(List.of(layer("in", "Input"), layer("drop", "Dropout", Map.of("rate", 0.99)),
                layer("out", "Output")), List.of(edge("in", "drop"), edge("drop", "out")));
        submit(g, "iris").statusCode(400).body("nodeId", equalTo("drop")).body("field", equalTo("graph.layers[1].params.rate"))
                .body("reason", containsString("must be between 0 and 0.95, was 0.99"));
    }

    @Test
    void anUnknownDatasetOrABadHyperParameterIs400NamingTheField() {
        submit(TestGraphs.irisMlp(), "mnist").statusCode(400).body("field", equalTo("dataset"))
                .body("reason", containsString("unknown dataset 'mnist'"));
        validate(TestGraphs.irisMlp(), "mnist").statusCode(400).body("field", equalTo("dataset"));
        given().header("X-Gantry-User", "alice").contentType(ContentType.JSON)
                .body(Map.of("graph", TestGraphs.irisMlp(), "dataset", "iris", "learningRate", 50))
                .post("/api/runs").then().statusCode(400).body("field", equalTo("learningRate"));
        given().header("X-Gantry-User", "alice").contentType(ContentType.JSON).body("{\"graph\": {\"layers\": [")
                .post("/api/graphs/validate").then().statusCode(400).body("reason", containsString("is not valid JSON"));
    }

    @Test
    void aMissingOrInvalidUserIs401() {
        given().contentType(ContentType.JSON).body(Map.of("graph", TestGraphs.irisMlp(), "dataset", "iris"))
                .post("/api/graphs/validate").then().statusCode(401).body("field", equalTo("X-Gantry-User"));
        given().get("/api/runs").then().statusCode(401);
        given().header("X-Gantry-User", "../root").get("/api/graphs").then().statusCode(401)
                .body("reason", containsString("must be"));
    }
}
