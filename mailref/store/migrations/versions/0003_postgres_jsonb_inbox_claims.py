"""JSONB for the JSON columns on PostgreSQL; claims on stored mail (several daemons)

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

JSON_COLUMNS = [
    ("games", "state"),
    ("games", "initial"),
    ("journal", "action"),
    ("journal", "draws"),
    ("inbox", "rcpt_to"),
    ("outbox", "recipients"),
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table, column in JSON_COLUMNS:
            jsonb = JSONB()  # type: ignore[no-untyped-call]
            op.alter_column(table, column, type_=jsonb, postgresql_using=f"{column}::jsonb")
    with op.batch_alter_table("inbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("claimed_by", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("lease_until", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbox", schema=None) as batch_op:
        batch_op.drop_column("lease_until")
        batch_op.drop_column("claimed_by")
    if op.get_bind().dialect.name == "postgresql":
        for table, column in JSON_COLUMNS:
            op.alter_column(table, column, type_=sa.JSON(), postgresql_using=f"{column}::json")
