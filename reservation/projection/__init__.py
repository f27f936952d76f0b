"""The unknowns (OBC populations) sampled under the published past lists.
"""
