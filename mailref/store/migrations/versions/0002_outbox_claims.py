"""outbox claims (a row is claimed before it is sent) and the audit of dropped rows

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("claimed_by", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("lease_until", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("dropped_by", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("dropped_at", sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column("drop_reason", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        for name in ("drop_reason", "dropped_at", "dropped_by", "lease_until", "claimed_by"):
            batch_op.drop_column(name)
