package io.gantry.tuner.rest;

import io.gantry.tuner.service.JobSubmissions;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A refused {@code POST /jobs}: its status (400, 403, 409, 429, 503) with {@code {field, reason}}. */
@Provider
public class RefusedMapper implements ExceptionMapper<JobSubmissions.Refused> {

    @Override
    public Response toResponse(JobSubmissions.Refused e) {
        return BadBodyMapper.answer(e.refusal().status(), e.refusal().rejection());
    }
}
