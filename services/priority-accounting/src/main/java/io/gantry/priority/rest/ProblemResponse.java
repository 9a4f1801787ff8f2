package io.gantry.priority.rest;

import jakarta.ws.rs.core.Response;
import java.util.List;

/** The body of every error answer: the HTTP status and, for bad input, each offending field with the reason. */
public record ProblemResponse(int status, String message, List<FieldError> errors) {

    public record FieldError(String field, String reason) {
    }

    static Response badRequest(List<FieldError> errors) {
        return Response.status(400).entity(new ProblemResponse(400, "invalid input", errors)).build();
    }

    static Response notFound(String what) {
        return Response.status(404).entity(new ProblemResponse(404, what, List.of())).build();
    }

    static Response conflict(String what) {
        return Response.status(409).entity(new ProblemResponse(409, what, List.of())).build();
    }
}
