package io.gantry.studio.rest;

import io.gantry.studio.service.Catalog;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The designer's palette, datasets and templates; the one API call that needs no user. */
@Path("/api/catalog")
@Produces(MediaType.APPLICATION_JSON)
public class CatalogResource {

    private final Catalog catalog;

    public CatalogResource(Catalog catalog) {
        this.catalog = catalog;
    }

    @GET
    public Catalog.View catalog() {
        return catalog.view();
    }
}
