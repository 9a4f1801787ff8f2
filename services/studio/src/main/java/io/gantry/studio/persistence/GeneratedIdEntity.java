package io.gantry.studio.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * An entity whose key is a {@code bigint} the database assigns on insert (an identity column in the Flyway schema),
 * not a Hibernate sequence as with Panache's own {@code PanacheEntity}.
 */
@MappedSuperclass
public abstract class GeneratedIdEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;
}
